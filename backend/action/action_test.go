package action_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/journal"
	"paydash/backend/money"
)

var t0 = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

// line is a journal line of an action; id "" makes an older paydash's line.
func line(min int, id, kind, phase, object, key string) journal.Entry {
	return journal.Entry{Time: t0.Add(time.Duration(min) * time.Minute), Action: kind, Phase: phase, ObjectID: object,
		Amount: "500.00", Currency: "RUB", Interface: "v2", IdempotencyKey: key, ActionID: id}
}

func ids(rs []action.Request) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func TestPendingWithActionIDs(t *testing.T) {
	entries := []journal.Entry{
		line(0, "a", "refund", journal.PhaseSent, "1", "k-a"),
		line(1, "b", "capture", journal.PhaseSent, "2", ""),
		line(2, "a", "refund", journal.PhaseUnknown, "1", "k-a"),
		line(3, "c", "cancel_hold", journal.PhaseSent, "3", ""),
		line(4, "b", "capture", journal.PhaseDone, "2", ""),
		line(5, "d", "refund", journal.PhaseSent, "4", "k-d"),
		line(6, "d", "refund", journal.PhaseAbandoned, "4", "k-d"),
		line(7, "e", "refund", journal.PhaseSent, "5", "k-e"),
		line(8, "e", "refund", journal.PhaseAbandoned, "5", "k-e"),
		line(9, "e", "refund", journal.PhaseDone, "5", "k-e"), // a done after abandoned resolves it
		line(10, "f", "refund", journal.PhaseSent, "6", "k-f"),
		line(11, "f", "refund", journal.PhaseFailed, "6", "k-f"),
		line(12, "f", "refund", journal.PhaseUnknown, "6", "k-f"), // any final line resolves, whatever comes after
	}
	got := action.Pending(entries)
	assert.Equal(t, []string{"a", "c", "d"}, ids(got), "oldest first; unknown and abandoned are not final")

	a := got[0]
	assert.Equal(t, backend.ActionRefund, a.Kind)
	assert.Equal(t, "1", a.ObjectID)
	assert.Equal(t, "500.00 RUB", a.Amount.String())
	assert.Equal(t, backend.V2, a.Interface)
	assert.Equal(t, "k-a", a.IdempotencyKey)
	assert.True(t, a.Sent.Equal(t0), "Sent is the sent line's time")
	assert.Equal(t, backend.ActionCancelHold, got[1].Kind)
}

func TestPendingInOddOrders(t *testing.T) {
	// The final line before the sent line still resolves the action.
	entries := []journal.Entry{
		line(1, "a", "refund", journal.PhaseDone, "1", "k-a"),
		line(0, "a", "refund", journal.PhaseSent, "1", "k-a"),
		// An action whose sent line is missing (torn): rebuilt from the
		// line it has, when it was sent not known.
		line(2, "b", "refund", journal.PhaseAbandoned, "2", "k-b"),
		// Its sent line after its unknown line: rebuilt from the sent line.
		line(4, "c", "capture", journal.PhaseUnknown, "3", ""),
		line(3, "c", "capture", journal.PhaseSent, "3", ""),
	}
	got := action.Pending(entries)
	require.Equal(t, []string{"b", "c"}, ids(got))
	assert.True(t, got[0].Sent.IsZero(), "when b was sent is not known")
	assert.True(t, got[1].Sent.Equal(t0.Add(3*time.Minute)), "c's Sent is its sent line's")
}

func TestPendingOfAnOlderPaydash(t *testing.T) {
	entries := []journal.Entry{
		line(0, "", "refund", journal.PhaseSent, "1", "k-1"),
		line(1, "", "refund", journal.PhaseDone, "1", "k-1"),
		line(2, "", "capture", journal.PhaseSent, "2", ""),
		line(3, "", "capture", journal.PhaseSent, "2", ""), // a second capture of the same payment
		line(4, "", "capture", journal.PhaseFailed, "2", ""),
		line(5, "", "refund", journal.PhaseFailed, "9", "k-9"), // a final line with no sent line: nothing
		line(6, "", "refund", journal.PhaseSent, "3", "k-3"),
		line(7, "", "refund", journal.PhaseDone, "3", "other key"), // not the same three
	}
	got := action.Pending(entries)
	require.Len(t, got, 2)
	assert.Equal(t, "2", got[0].ObjectID)
	assert.True(t, got[0].Sent.Equal(t0.Add(3*time.Minute)), "the oldest open sent line is resolved first")
	assert.Equal(t, "3", got[1].ObjectID)
	for _, r := range got {
		assert.NotEmpty(t, r.ID, "an older action gets an ID")
	}
	assert.Equal(t, ids(got), ids(action.Pending(entries)), "the same ID at every start")

	// The order matters for older lines: a done before the sent is not its answer.
	assert.Len(t, action.Pending([]journal.Entry{
		line(1, "", "refund", journal.PhaseDone, "1", "k-1"),
		line(2, "", "refund", journal.PhaseSent, "1", "k-1"),
	}), 1)

	// The final line Check writes under the made ID resolves it, and an
	// abandoned line under it does not make a second action.
	first := got[1]
	abandoned := line(8, first.ID, "refund", journal.PhaseAbandoned, "3", "k-3")
	assert.Equal(t, ids(got), ids(action.Pending(append(entries, abandoned))))
	done := line(9, first.ID, "refund", journal.PhaseDone, "3", "k-3")
	assert.Equal(t, []string{got[0].ID}, ids(action.Pending(append(entries, abandoned, done))))
}

func TestPendingReportsWhatItCannotRead(t *testing.T) {
	bad := line(0, "a", "refund", journal.PhaseSent, "1", "k-a")
	bad.Amount = "five hundred"
	odd := line(1, "b", "revoke", journal.PhaseSent, "tok-1", "")
	got := action.Pending([]journal.Entry{bad, odd})
	require.Len(t, got, 2, "reported, not dropped")
	assert.True(t, got[0].Amount.Value.IsZero())
	assert.Equal(t, "RUB", got[0].Amount.Currency)
	assert.Equal(t, backend.ActionName("revoke"), got[1].Kind)
	assert.False(t, action.Known(got[1].Kind))

	assert.Equal(t, "refund of an unknown amount for payment 1", action.Describe(got[0]))
	assert.Equal(t, `action "revoke" of 500.00 RUB on tok-1`, action.Describe(got[1]))

	// Check cannot find them out, and says so without asking anything.
	run := &action.Runner{}
	for _, r := range got {
		o := run.Check(t.Context(), r)
		assert.Equal(t, action.Unknown, o.State)
		assert.False(t, o.Retry)
		assert.Contains(t, o.Text(r), "check the payment by hand")
	}
}

func TestPendingAfterATornLastLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	require.NoError(t, err)
	require.NoError(t, j.Record(line(0, "a", "refund", journal.PhaseSent, "1", "k-a")))
	require.NoError(t, j.Record(line(1, "b", "refund", journal.PhaseSent, "2", "k-b")))
	require.NoError(t, j.Close())
	// paydash was cut off while writing b's outcome.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"time":"2026-11-21T10:02:00Z","action":"refund","phase":"done","objectId":"2","actionId":"b","res`)
	require.NoError(t, err)
	require.NoError(t, f.Close())

	entries, err := journal.Read(path)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, ids(action.Pending(entries)), "the torn outcome is not an outcome")
}

func TestDescribeAndText(t *testing.T) {
	capture := action.Request{Kind: backend.ActionCapture, ObjectID: "43149010", Amount: rub("500"), Interface: backend.V2}
	cancel := action.Request{Kind: backend.ActionCancelHold, ObjectID: "43149010", Amount: rub("500"), Interface: backend.V2}
	refund := action.Request{Kind: backend.ActionRefund, ObjectID: "43149010", Amount: rub("1250.5"), Interface: backend.V2, IdempotencyKey: "k"}

	assert.Equal(t, "refund of 1,250.50 RUB for payment 43149010", action.Describe(refund))
	assert.Equal(t, "capture of 500.00 RUB for payment 43149010", action.Describe(capture))
	assert.Equal(t, "release of the hold of 500.00 RUB on payment 43149010", action.Describe(cancel))

	settled := backend.Payment{ID: "43149010", Status: backend.PaymentSettled, Amount: rub("500")}
	assert.Equal(t, "Captured 500.00 RUB of payment 43149010 — now Settled",
		action.Outcome{State: action.Done, Payment: settled, How: action.HowAnswered}.Text(capture))
	assert.Equal(t, "Released the hold of 500.00 RUB on payment 43149010 — now Cancelled",
		action.Outcome{State: action.Done, Payment: backend.Payment{ID: "43149010", Status: backend.PaymentCancelled, Amount: rub("500")}}.Text(cancel))
	assert.Equal(t, "Refund 7000123 of 1,250.50 RUB made for payment 43149010 — Pending",
		action.Outcome{State: action.Done, Refund: backend.Refund{ID: "7000123", Status: backend.RefundPending}}.Text(refund))

	refused := &backend.Error{Kind: backend.KindRefused, Op: "capture payment 43149010", Interface: backend.V2,
		Code: "invalid_operation", Message: "payment 43149010 is Settled; only an Authorized payment can be captured"}
	assert.Equal(t, "Capture of 500.00 RUB for payment 43149010 was refused: payment 43149010 is Settled; "+
		"only an Authorized payment can be captured (code invalid_operation)",
		action.Outcome{State: action.NotDone, Err: refused, How: action.HowAnswered}.Text(capture))

	assert.Equal(t, "Refund of 1,250.50 RUB for payment 43149010 was not made: no refund carries its externalID",
		action.Outcome{State: action.NotDone, Err: errors.New("no refund carries its externalID"), How: action.HowLookedUp}.Text(refund))

	lost := &backend.Error{Kind: backend.KindUnavailable, Op: "refund", Interface: backend.V2, Message: "no answer from the service in time"}
	assert.Equal(t, "Refund of 1,250.50 RUB for payment 43149010: outcome unknown — checking (no answer from the service in time)",
		action.Outcome{State: action.Unknown, Err: lost, Retry: true}.Text(refund))
	assert.Equal(t, "Refund of 1,250.50 RUB for payment 43149010: outcome unknown — the key has expired; check the payment by hand",
		action.Outcome{State: action.Unknown, Err: errors.New("the key has expired")}.Text(refund))

	// A capture whose journaled amount could not be read, found Settled.
	unread := action.Request{Kind: backend.ActionCapture, ObjectID: "43149010", Amount: money.Amount{Currency: "RUB"}}
	assert.Equal(t, "Captured 500.00 RUB of payment 43149010 — now Settled",
		action.Outcome{State: action.Done, Payment: settled, How: action.HowReadPayment}.Text(unread))
	assert.Equal(t, "Capture of an unknown amount for payment 43149010 was not made: the payment is still Authorized",
		action.Outcome{State: action.NotDone, Err: errors.New("the payment is still Authorized"), How: action.HowReadPayment}.Text(unread))

	// Text from the server is cleaned.
	evil := action.Outcome{State: action.NotDone, How: action.HowAnswered,
		Err: &backend.Error{Kind: backend.KindRefused, Message: "no\x1b[31m red\u202e"}}
	assert.False(t, strings.ContainsAny(evil.Text(capture), "\x1b\u202e"))
	for _, o := range []action.Outcome{{State: action.Done}, {State: action.NotDone, Err: lost}, {State: action.Unknown, Err: lost}} {
		assert.False(t, strings.HasSuffix(o.Text(refund), "."), "no trailing period")
	}
}

func TestNew(t *testing.T) {
	r := action.New(backend.ActionRefund, "1", rub("10"), backend.V1)
	assert.NotEmpty(t, r.ID)
	assert.NotEmpty(t, r.IdempotencyKey)
	assert.NotEqual(t, r.ID, r.IdempotencyKey)
	assert.Equal(t, backend.V1, r.Interface)
	assert.True(t, r.Sent.IsZero(), "Send sets it")

	c := action.New(backend.ActionCapture, "1", rub("10"), backend.V2)
	assert.Empty(t, c.IdempotencyKey, "a capture has no key")
	assert.NotEqual(t, r.ID, c.ID)
}
