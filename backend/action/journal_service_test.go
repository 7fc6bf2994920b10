package action_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/internal/testkit"
	"paydash/backend/journal"
	"paydash/backend/sandbox"
)

// twin is one of two sandboxes started with the same seed: the same
// payment ids, another port, other credentials.
type twin struct {
	srv *sandbox.Server
	log *testkit.Buffer // its request log
	cfg backend.Config
	b   backend.Backend
}

func startTwin(t *testing.T) *twin {
	t.Helper()
	log := &testkit.Buffer{}
	srv, err := sandbox.Start(t.Context(), sandbox.Options{Seed: 7, Payments: 0, SettleDelay: time.Hour,
		CallbackBackoff: 10 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(log, nil))})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	cfg := backend.Config{BaseURL: srv.BaseURL(), RootCAs: srv.CertPool(), V2Token: srv.Info().V2Token,
		MerchantIDs: srv.Info().MerchantIDs}
	b, err := backend.Open(cfg)
	require.NoError(t, err)
	return &twin{srv: srv, log: log, cfg: cfg, b: b}
}

// start is what paydash does at start against tw: open the journal for its
// service and split what is open by service.
func (tw *twin) start(t *testing.T, jpath string) (*action.Runner, []action.Request, []action.Elsewhere) {
	t.Helper()
	here := action.ServicesOf(tw.cfg)
	j, err := journal.OpenWith(jpath, journal.Options{Services: here})
	require.NoError(t, err)
	t.Cleanup(func() { _ = j.Close() })
	mine, elsewhere := action.PendingHere(j.Opened().Open, here)
	return &action.Runner{Backend: tw.b, Journal: j}, mine, elsewhere
}

// A refund whose answer was lost on sandbox A is never checked nor replayed
// on sandbox B, which holds a payment of the same id: B is never asked, the
// action is listed with A's origin, and a start against A finds it out.
func TestAnActionLeftOpenOnOneServiceIsNeverSentToAnother(t *testing.T) {
	a, b := startTwin(t), startTwin(t)
	pay := func(tw *twin) string {
		amount := rub("1000")
		p, err := tw.srv.Store().CreatePayment(sandbox.PaymentRequest{
			MerchantID: tw.srv.Store().MerchantIDs()[0], Amount: &amount, PaymentMethod: "bankcard",
			Invoice: sandbox.Invoice{Description: "twin", OrderNo: "T-1"},
			Card:    &sandbox.CardData{PAN: "4111111111111111", Expiry: "12/30", CVC: "123"},
		})
		require.NoError(t, err)
		return p.ID
	}
	paid := pay(a)
	require.Equal(t, paid, pay(b), "the same seed, the same payment ids")
	jpath := filepath.Join(t.TempDir(), "journal.jsonl")

	// On A the refund is made, and its answer comes back garbled.
	run, mine, elsewhere := a.start(t, jpath)
	require.Empty(t, mine)
	require.Empty(t, elsewhere)
	require.NoError(t, a.srv.SetFaults(sandbox.Faults{MalformedRate: 1}))
	req, o := run.Send(context.Background(), action.New(backend.ActionRefund, paid, rub("100"), backend.V2))
	require.Equal(t, action.Unknown, o.State, "%v", o.Err)
	require.NoError(t, a.srv.SetFaults(sandbox.Faults{}))
	made, err := a.srv.Store().RefundsOfPayment(paid)
	require.NoError(t, err)
	require.Len(t, made, 1, "A made the refund")
	require.NoError(t, run.Journal.Close())

	// paydash starts against B with the same journal.
	logged := b.log.String()
	run, mine, elsewhere = b.start(t, jpath)
	assert.Empty(t, mine, "nothing of A's is checked or replayed on B")
	require.Len(t, elsewhere, 1)
	assert.Equal(t, journal.Origin(a.srv.BaseURL()), elsewhere[0].Service.Origin)
	assert.Equal(t, "1 action left open on "+journal.Origin(a.srv.BaseURL())+
		" — not checked here; start paydash against that service to check it: refund of 100.00 RUB for payment "+paid,
		elsewhere[0].Text)
	// Even handed to B's runner, it is not asked.
	left := elsewhere[0].Requests[0]
	assert.Equal(t, req.ID, left.ID)
	o = run.Check(context.Background(), left)
	require.Equal(t, action.Unknown, o.State)
	assert.False(t, o.Retry)
	assert.Contains(t, o.Err.Error(), "it was sent to "+journal.Origin(a.srv.BaseURL())+" (v2), not to the service paydash is configured for now")
	refunds, err := b.srv.Store().RefundsOfPayment(paid)
	require.NoError(t, err)
	assert.Empty(t, refunds, "B made no refund")
	assert.Equal(t, logged, b.log.String(), "B was not asked anything")
	require.NoError(t, run.Journal.Close())
	entries, err := journal.Read(jpath)
	require.NoError(t, err)
	for _, e := range entries {
		assert.NotEqual(t, journal.PhaseDone, e.Phase, "no outcome was written for A's refund from B")
		assert.NotEqual(t, journal.PhaseFailed, e.Phase)
	}

	// paydash starts against A again: there it is checked, and found.
	run, mine, elsewhere = a.start(t, jpath)
	assert.Empty(t, elsewhere)
	require.Len(t, mine, 1)
	o = run.Check(context.Background(), mine[0])
	require.Equal(t, action.Done, o.State, "%v", o.Err)
	assert.Equal(t, action.HowAskedAgain, o.How)
	assert.Equal(t, made[0].ID, o.Refund.ID, "the refund A made")
	made, err = a.srv.Store().RefundsOfPayment(paid)
	require.NoError(t, err)
	assert.Len(t, made, 1, "and only that one")
	require.NoError(t, run.Journal.Close())

	// Every line names A, and none holds a secret.
	raw, err := os.ReadFile(jpath)
	require.NoError(t, err)
	assert.NotContains(t, string(raw), a.cfg.V2Token)
	assert.NotContains(t, string(raw), b.cfg.V2Token)
	entries, err = journal.Read(jpath)
	require.NoError(t, err)
	require.Len(t, entries, 3)
	for _, e := range entries {
		require.NotNil(t, e.Service)
		assert.Equal(t, action.ServicesOf(a.cfg)[0], *e.Service)
	}
	assert.Equal(t, journal.PhaseDone, entries[2].Phase)
}

func TestPendingHereSplitsByService(t *testing.T) {
	v2 := journal.NewService("https://pay.example.com", "v2", false, "tok")
	v1 := journal.NewService("https://pay.example.com", "v1", false, "accountant", "pw")
	otherV2 := journal.NewService("https://pay.example.com", "v2", false, "older-tok")
	elsewhereHost := journal.NewService("https://other-host", "v2", false, "tok")
	sandboxA := journal.NewService("https://127.0.0.1:41234", "v2", true, "pdv2_a")
	sandboxB := journal.NewService("https://127.0.0.1:41999", "v2", true, "pdv2_b")
	on := func(e journal.Entry, s journal.Service) journal.Entry { e.Service = &s; return e }
	entries := []journal.Entry{
		on(line(0, "a", "refund", journal.PhaseSent, "1", "k-a"), v2),
		on(line(1, "b", "refund", journal.PhaseSent, "2", "k-b"), elsewhereHost),
		on(line(2, "c", "capture", journal.PhaseSent, "3", ""), elsewhereHost),
		line(3, "d", "refund", journal.PhaseSent, "4", "k-d"), // an older paydash: no service
		on(line(4, "e", "refund", journal.PhaseSent, "5", "k-e"), v1),
		on(line(5, "f", "refund", journal.PhaseSent, "6", "k-f"), otherV2),
		on(line(6, "g", "refund", journal.PhaseSent, "7", "k-g"), sandboxA),
		on(line(7, "h", "refund", journal.PhaseSent, "8", "k-h"), sandboxB),
		on(line(8, "b", "refund", journal.PhaseUnknown, "2", "k-b"), elsewhereHost),
	}
	for _, e := range entries[:3] {
		assert.NotContains(t, fmt.Sprint(*e.Service), "tok\"")
	}

	mine, elsewhere := action.PendingHere(entries, []journal.Service{v2})
	assert.Equal(t, []string{"a"}, ids(mine))
	var texts []string
	for _, e := range elsewhere {
		texts = append(texts, e.Text)
	}
	assert.Equal(t, []string{
		"2 actions left open on https://other-host — not checked here; start paydash against that service to check them: " +
			"refund of 500.00 RUB for payment 2, capture of 500.00 RUB for payment 3",
		"1 action left open by an older paydash, which did not note the service it sent it to — not checked here; check it by hand: " +
			"refund of 500.00 RUB for payment 4",
		"1 action left open on https://pay.example.com through v1, which is not configured now — not checked here; " +
			"start paydash with its v1 credentials to check it: refund of 500.00 RUB for payment 5",
		"1 action left open on https://pay.example.com under other v2 credentials — not checked here; " +
			"start paydash with those credentials to check it: refund of 500.00 RUB for payment 6",
		"2 actions left open on the embedded sandbox of an earlier run — not checked here: that sandbox ended with its run: " +
			"refund of 500.00 RUB for payment 7, refund of 500.00 RUB for payment 8",
	}, texts)
	assert.True(t, elsewhere[1].Service.IsZero())

	// With both interfaces configured, the v1 action is found out here.
	mine, _ = action.PendingHere(entries, []journal.Service{v2, v1})
	assert.Equal(t, []string{"a", "e"}, ids(mine))

	// More than three are counted.
	var many []journal.Entry
	for i := range 5 {
		many = append(many, on(line(i, fmt.Sprint("m", i), "capture", journal.PhaseSent, fmt.Sprint(i), ""), elsewhereHost))
	}
	_, elsewhere = action.PendingHere(many, []journal.Service{v2})
	require.Len(t, elsewhere, 1)
	assert.True(t, strings.HasSuffix(elsewhere[0].Text, "capture of 500.00 RUB for payment 2, and 2 more"), elsewhere[0].Text)

	// Text from the journal is cleaned before it is shown.
	evil := journal.Service{Origin: "https://evil\x1b[31m", Interface: "v2", Credentials: "x"}
	_, elsewhere = action.PendingHere([]journal.Entry{on(line(0, "z", "capture", journal.PhaseSent, "1", ""), evil)}, []journal.Service{v2})
	require.Len(t, elsewhere, 1)
	assert.NotContains(t, elsewhere[0].Text, "\x1b")
}

func TestServicesOf(t *testing.T) {
	both := backend.Config{BaseURL: "https://Pay.Example.com/", V2Token: "tok", V1Login: "accountant", V1Password: "pw"}
	got := action.ServicesOf(both)
	require.Len(t, got, 2)
	assert.Equal(t, journal.NewService("https://pay.example.com", "v2", false, "tok"), got[0], "the carrier first")
	assert.Equal(t, journal.NewService("https://pay.example.com", "v1", false, "accountant", "pw"), got[1])
	assert.Equal(t, []journal.Service{got[1]}, action.ServicesOf(backend.Config{BaseURL: both.BaseURL, V1Login: "accountant", V1Password: "pw"}))
	embedded := action.ServicesOf(backend.Config{BaseURL: "https://127.0.0.1:41234", V2Token: "tok", Sandbox: true})
	assert.True(t, embedded[0].Embedded)
	for _, s := range got {
		raw, _ := json.Marshal(s)
		assert.NotContains(t, string(raw), "tok")
		assert.NotContains(t, string(raw), "pw")
		assert.NotContains(t, string(raw), "accountant")
	}
}

// Open reads the journal as a stream and keeps only the open actions'
// lines; a rollover carries just those. Either way Pending finds what it
// finds in the whole file: on journals of random histories, with lines of
// an older paydash, outcomes of theirs under the IDs Pending makes, lines
// after an outcome, escapes, torn and damaged lines.
func TestPendingFromTheStreamIsPendingFromTheWholeFile(t *testing.T) {
	for seed := range uint64(40) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 1))
			dir := t.TempDir()
			path := filepath.Join(dir, "journal.jsonl")
			require.NoError(t, os.WriteFile(path, randomJournal(t, rng), 0o600))

			whole, err := journal.Read(path)
			var ce *journal.CorruptError
			if err != nil {
				require.ErrorAs(t, err, &ce)
			}
			want := action.Pending(whole)

			j, err := journal.OpenWith(path, journal.Options{RolloverSize: 1 << 30})
			require.NoError(t, err)
			require.Equal(t, ids(want), ids(action.Pending(j.Opened().Open)), "read as a stream")
			assert.Equal(t, want, action.Pending(j.Opened().Open), "read as a stream")
			if ce != nil {
				require.NotNil(t, j.Opened().Corrupt)
				assert.Equal(t, ce.Lines, j.Opened().Corrupt.Lines)
			} else {
				assert.Nil(t, j.Opened().Corrupt)
			}
			require.NoError(t, j.Close())

			j, err = journal.OpenWith(path, journal.Options{RolloverSize: 1})
			require.NoError(t, err)
			require.NotEmpty(t, j.Opened().Archived)
			require.NoError(t, j.Close())
			rolled, err := journal.Read(path)
			require.NoError(t, err)
			require.Equal(t, ids(want), ids(action.Pending(rolled)), "rolled over: the new file alone")
			assert.Equal(t, want, action.Pending(rolled), "rolled over: the new file alone")
			j, err = journal.OpenWith(path, journal.Options{RolloverSize: 1})
			require.NoError(t, err)
			require.Equal(t, ids(want), ids(action.Pending(j.Opened().Open)), "and read again as a stream")
			assert.Equal(t, want, action.Pending(j.Opened().Open), "and read again as a stream")
			require.NoError(t, j.Close())
		})
	}
}

// randomJournal is a journal of random actions interleaved.
func randomJournal(t *testing.T, rng *rand.Rand) []byte {
	var buf bytes.Buffer
	write := func(e journal.Entry) {
		b, err := json.Marshal(e)
		require.NoError(t, err)
		buf.Write(b)
		buf.WriteByte('\n')
	}
	type act struct {
		e      journal.Entry
		legacy bool
		left   int // lines still to write
	}
	var live []*act
	minute := 0
	kinds := []string{"refund", "capture", "cancel_hold", "revoke_token", "toggle_sticker"}
	for n := 0; n < 60 || len(live) > 0; {
		if n < 60 && (len(live) == 0 || rng.IntN(3) == 0) {
			n++
			e := line(minute, fmt.Sprintf("id-%d", n), kinds[rng.IntN(len(kinds))], journal.PhaseSent,
				fmt.Sprint(rng.IntN(8)), fmt.Sprintf("k-%d", rng.IntN(5)))
			if rng.IntN(9) == 0 {
				e.ObjectID = `pay\"` + e.ObjectID // an escape in a field walk reads
			}
			a := &act{e: e, legacy: rng.IntN(5) == 0, left: rng.IntN(4)}
			if a.legacy {
				a.e.ActionID = ""
			}
			write(a.e)
			live = append(live, a)
			continue
		}
		i := rng.IntN(len(live))
		a := live[i]
		minute++
		e := a.e
		e.Time = t0.Add(time.Duration(minute) * time.Minute)
		phases := []string{journal.PhaseUnknown, journal.PhaseAbandoned, journal.PhaseDone, journal.PhaseFailed}
		e.Phase = phases[rng.IntN(len(phases))]
		if a.legacy && rng.IntN(2) == 0 {
			// paydash found out an older paydash's action: under the ID it
			// made for it.
			sent := a.e
			sent.Time = sent.Time.UTC()
			e.ActionID = journal.LegacyID(sent)
		}
		write(e)
		switch rng.IntN(12) {
		case 0:
			buf.WriteString(`{"time":"2026-11-21T10:00:00Z","action":"refund","pha` + "\n") // torn, then ended
		case 1:
			buf.WriteString("not an entry\n")
		}
		a.left--
		if a.left < 0 {
			live = append(live[:i], live[i+1:]...)
		}
	}
	return buf.Bytes()
}

// An action whose sent line cannot be written in full, the disk being full,
// is not sent, and the journal stays whole lines (a tmpfs of 64 KiB: needs
// Linux and root to mount).
func TestOnAFullDiskNothingIsSent(t *testing.T) {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs Linux and root; journal's own tests inject the failure instead")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v: %s)", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	srv := startSandbox(t)
	f := newFixture(t, srv, setups[0])
	j, err := journal.Open(filepath.Join(dir, "journal.jsonl"))
	require.NoError(t, err)
	defer j.Close()
	c := &countingCreates{Backend: f.b}
	run := &action.Runner{Backend: c, Journal: j}
	paid := f.pay("1000", false)
	_, o := run.Send(context.Background(), action.New(backend.ActionRefund, paid, rub("100"), backend.V2))
	require.Equal(t, action.Done, o.State, "%v", o.Err)

	filler, err := os.Create(filepath.Join(dir, "filler"))
	require.NoError(t, err)
	for {
		if _, err := filler.Write(make([]byte, 512)); err != nil {
			require.ErrorIs(t, err, syscall.ENOSPC)
			break
		}
	}
	require.NoError(t, filler.Close())
	// A create's lines carry its whole request: with a description longer
	// than any room left, its sent line cannot be written.
	req := action.NewCreateInvoice(backend.InvoiceLinkRequest{MerchantID: srv.Info().MerchantIDs[0], Amount: rub("10"),
		OrderNo: "F-1", Description: strings.Repeat("d", 16<<10)})
	_, o = run.Send(context.Background(), req)
	require.Equal(t, action.NotDone, o.State)
	assert.ErrorIs(t, o.Err, action.ErrNotRecorded)
	assert.ErrorIs(t, o.Err, syscall.ENOSPC)
	assert.Zero(t, c.creates.Load(), "nothing was sent")

	require.NoError(t, os.Remove(filepath.Join(dir, "filler")))
	_, o = run.Send(context.Background(), action.New(backend.ActionRefund, paid, rub("25"), backend.V2))
	require.Equal(t, action.Done, o.State, "%v", o.Err)

	raw, err := os.ReadFile(filepath.Join(dir, "journal.jsonl"))
	require.NoError(t, err)
	for i, l := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		assert.True(t, json.Valid([]byte(l)), "line %d is whole: %q", i+1, l)
	}
	assert.NotContains(t, string(raw), "F-1", "the create that was not sent left no line")
	assert.Empty(t, action.Pending(readAll(t, filepath.Join(dir, "journal.jsonl"))), "every action sent has its outcome")
}

type countingCreates struct {
	backend.Backend
	creates atomic.Int32
}

func (c *countingCreates) CreateInvoiceLink(ctx context.Context, r backend.InvoiceLinkRequest) (backend.InvoiceLink, error) {
	c.creates.Add(1)
	return c.Backend.CreateInvoiceLink(ctx, r)
}

func readAll(t *testing.T, path string) []journal.Entry {
	t.Helper()
	es, err := journal.Read(path)
	require.NoError(t, err)
	return es
}
