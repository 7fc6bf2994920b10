package activity

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/approval"
	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

// clock is the approvals store's clock, moved by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) at(min int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t0.Add(time.Duration(min) * time.Minute)
}

func rub(v string) money.Amount { return money.Amount{Value: money.MustParse(v), Currency: "RUB"} }

// desk is a morning at the desk: desk-1 asks for three refunds over their
// limit; boss-1 approves the first (sent, and done, in the journal),
// rejects the second with a reason, and nobody decides the third, which
// expires. carl sends an action of his own meanwhile. All is written by
// the approvals store and the journal themselves.
func desk(t *testing.T, j *journal.Journal, s *approval.Store, c *clock) {
	t.Helper()
	file := func(obj, amount string) approval.Request {
		a := action.New(backend.ActionRefund, obj, rub(amount), backend.V2)
		a.ID = "act-" + obj // given, so that the goldens show it; a request's own id is random
		r, err := s.File(a, "desk-1", "SHA256:desk")
		require.NoError(t, err)
		return r
	}
	c.at(10)
	ok := file("43149021", "70000.00")
	c.at(11)
	no := file("43149022", "250000.00")
	c.at(12)
	file("43149023", "90000.00")
	c.at(13)
	sent, err := s.Claim(ok.ID, "boss-1", "SHA256:boss")
	require.NoError(t, err)
	require.NoError(t, j.Record(withTime(action.EntryOf(sent.Action, journal.PhaseSent), 13)))
	require.NoError(t, j.Record(line("c1", "revoke_token", journal.PhaseSent, 14, by("carl", "", nil))))
	done := action.EntryOf(sent.Action, journal.PhaseDone)
	done.Result = "refund 7000200 Pending"
	require.NoError(t, j.Record(withTime(done, 15)))
	require.NoError(t, s.Settle(ok.ID, "done: refund 7000200 Pending", true))
	c.at(16)
	_, err = s.Reject(no.ID, "boss-1", "SHA256:boss", "over the daily limit; ask for a receipt")
	require.NoError(t, err)
	c.at(50)
	require.Len(t, s.Expire(), 1)
}

func withTime(e journal.Entry, min int) journal.Entry {
	e.Time = t0.Add(time.Duration(min) * time.Minute)
	return e
}

// startedWithApprovals is the tab of a served dashboard after desk: the
// store stays open (and locked, as the server holds it) while it reads.
func startedWithApprovals(t *testing.T, w, h int) (*viewtest.Env, *Activity) {
	t.Helper()
	c := &clock{}
	s, err := approval.Open(filepath.Join(t.TempDir(), "approvals.jsonl"), approval.Options{Now: c.Now, TTL: 30 * time.Minute})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	e := viewtest.New(t, viewtest.Opts{Fixed: viewtest.GoldenNow, Tab: func(d tab.Deps) ui.Tab {
		d.Team = &tab.Team{Person: "boss-1", Approvals: s}
		return New(d)
	}})
	desk(t, e.J, s, c)
	e.Start(w, h)
	return e, e.Tab.(*Activity)
}

func shownIDs(a *Activity) (out []string) {
	for _, r := range a.List.Table.Shown() {
		out = append(out, r.Person+" "+r.Phase+" "+r.Req.ObjectID)
	}
	return out
}

func TestActivityShowsTheApprovalEventsBesideTheActionsInTimeOrder(t *testing.T) {
	t.Parallel()
	_, a := startedWithApprovals(t, 140, 30)
	assert.Equal(t, []string{
		"desk-1 expired 43149023",
		"desk-1 rejected 43149022",
		"carl sent 43149011",
		"desk-1 done 43149021", // the action approved, sent by the journal
		"desk-1 approved 43149021",
		"desk-1 filed 43149023",
		"desk-1 filed 43149022",
		"desk-1 filed 43149021",
	}, shownIDs(a), "newest first; at one moment the action above the approval that sent it")
	rows := a.List.Table.Shown()
	require.Len(t, rows, 8)
	got := map[string]string{}
	for _, r := range rows {
		got[r.Phase+" "+r.Req.ObjectID] = outcome(r) + " | " + what(r) + " | " + r.Approver
	}
	sentID := rows[3].ID
	assert.Equal(t, sentID, rows[4].Req.ID, "the approval names the action the journal has")
	assert.Equal(t, map[string]string{
		"expired 43149023":  "expired: nobody decided it in time | refund of 90,000.00 RUB for payment 43149023 | ",
		"rejected 43149022": "rejected by boss-1: over the daily limit; ask for a receipt | refund of 250,000.00 RUB for payment 43149022 | ",
		"sent 43149011":     "sent: no answer yet | revoke of token 43149011 | ",
		"done 43149021":     "done: refund 7000200 Pending | refund of 70,000.00 RUB for payment 43149021 | boss-1",
		"approved 43149021": "approved by boss-1: sent as action " + sentID[:8] + " | refund of 70,000.00 RUB for payment 43149021 | boss-1",
		"filed 43149023":    "filed: asks a supervisor's approval | refund of 90,000.00 RUB for payment 43149023 | ",
		"filed 43149022":    "filed: asks a supervisor's approval | refund of 250,000.00 RUB for payment 43149022 | ",
		"filed 43149021":    "filed: asks a supervisor's approval | refund of 70,000.00 RUB for payment 43149021 | ",
	}, got)
	assert.Equal(t, "boss-1", rows[1].Decider)
	assert.Equal(t, t0.Add(16*time.Minute), rows[1].Sent.UTC(), "the time of the rejection")
}

func TestActivityPersonFilterFindsTheAskerAndTheDecider(t *testing.T) {
	t.Parallel()
	e, a := startedWithApprovals(t, 140, 30)
	prev := ""
	filter := func(q string) []string {
		e.Press("/")
		for range len(prev) {
			e.Press("backspace")
		}
		prev = q
		e.TypeText(q)
		e.Press("enter")
		return shownIDs(a)
	}
	assert.Equal(t, []string{
		"desk-1 rejected 43149022", "desk-1 done 43149021", "desk-1 approved 43149021",
	}, filter("person:boss-1"), "who approved or rejected is a person involved")
	assert.Len(t, filter("person:desk-1"), 7, "who asked is too: all but carl's")
	assert.Equal(t, []string{"desk-1 rejected 43149022", "desk-1 filed 43149022"}, filter("person:desk-1 outcome:rejected,filed amount:>100000"))
	assert.Equal(t, []string{"desk-1 expired 43149023"}, filter("outcome:expired"))
}

func TestActivityExportsTheApprovalEvents(t *testing.T) {
	t.Parallel()
	e, a := startedWithApprovals(t, 140, 30)
	rows := a.List.Table.Shown()
	e.Send(viewtest.Ctrl('s'))
	d := e.OpenModal()
	path := filepath.Join(t.TempDir(), "activity.csv")
	d.SaveTo(path)
	require.True(t, d.Closed, d.Screen())
	e.Saved()
	recs := viewtest.ReadCSVFile(t, path)
	require.Len(t, recs, 9, "a header and the eight rows")
	assert.Equal(t, []string{"action_id", "sent_utc", "person", "approver", "approver_key", "action", "object_id",
		"amount", "currency", "phase", "result", "error", "how", "approval_id", "decided_by", "reason"}, recs[0])
	rejected, approved, done := rows[1], rows[4], rows[3]
	assert.Equal(t, []string{rejected.Req.ID, t0.Add(16 * time.Minute).Format(time.RFC3339), "desk-1", "", "", "refund",
		"43149022", "250000.00", "RUB", "rejected", "", "", "", rejected.RequestID, "boss-1",
		"over the daily limit; ask for a receipt"}, recs[2])
	assert.Equal(t, []string{done.ID, t0.Add(13 * time.Minute).Format(time.RFC3339), "desk-1", "boss-1", "SHA256:boss",
		"refund", "43149021", "70000.00", "RUB", "done", "refund 7000200 Pending", "", "", "", "", ""}, recs[4])
	assert.Equal(t, []string{done.ID, t0.Add(13 * time.Minute).Format(time.RFC3339), "desk-1", "boss-1", "SHA256:boss",
		"refund", "43149021", "70000.00", "RUB", "approved", "", "", "", approved.RequestID, "boss-1", ""}, recs[5],
		"the approval and the action it sent share the action's id")
	assert.Equal(t, "expired", recs[1][9])
	assert.Equal(t, "filed", recs[8][9])
}

func TestActivityAnApprovalsFileThatCannotBeReadIsSaidBesideTheActions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	jpath := filepath.Join(dir, "journal.jsonl")
	j, err := journal.Open(jpath)
	require.NoError(t, err)
	require.NoError(t, j.Record(line("a1", "refund", journal.PhaseSent, 0, by("anna", "", refund("1.00")))))
	require.NoError(t, j.Close())
	rows, err := loadRows(jpath, dir) // a directory, not a file
	require.NoError(t, err)
	require.Len(t, rows, 1)
	assert.Contains(t, rows[0].end, "; the approvals could not be read: approvals: ")
	rows, err = loadRows(jpath, filepath.Join(dir, "none.jsonl"))
	require.NoError(t, err)
	assert.Len(t, rows, 1, "none written yet: no rows of it")
	assert.Empty(t, rows[0].end)
}

func TestGoldenActivityWithApprovals120x20(t *testing.T) {
	t.Parallel()
	e, a := startedWithApprovals(t, 120, 20)
	viewtest.GoldenCheck(t, "list", a.View(120, 20))
	e.Press("down", "enter") // the rejection
	// The request's id is random (backend.NewIdempotencyKey).
	id := a.Pane.Obj.RequestID
	view := strings.ReplaceAll(a.View(120, 20), id, "request-0000-id")
	viewtest.GoldenCheck(t, "rejected", strings.ReplaceAll(view, id[:8], "request-"))
}

func TestActivityShowsTheApprovalEventsSinceTheJournalBegan(t *testing.T) {
	t.Parallel()
	c := &clock{}
	path := filepath.Join(t.TempDir(), "approvals.jsonl")
	s, err := approval.Open(path, approval.Options{Now: c.Now, TTL: 30 * time.Minute})
	require.NoError(t, err)
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	require.NoError(t, err)
	defer j.Close()
	desk(t, j, s, c)
	require.NoError(t, s.Close())
	rows, _, err := readApprovals(path, t0.Add(13*time.Minute))
	require.NoError(t, err)
	var phases []string
	for _, r := range rows {
		phases = append(phases, r.Phase)
	}
	assert.Equal(t, []string{"approved", "rejected", "expired"}, phases, "the filings before it are the archive's time")
	kept := []row{{Sent: t0.Add(20 * time.Minute)}, {Sent: t0.Add(5 * time.Minute)}}
	assert.Equal(t, t0, since(t0, kept, 0), "nothing cut: since the journal's file began")
	assert.Equal(t, t0.Add(5*time.Minute), since(t0, kept, 3), "actions cut: since the oldest kept")
}

// The approvals file rolls over at the same start as the journal, on the
// month boundary: the events since then are all in its new file, and the
// carried lines (older) are no rows, only steps of their request.
func TestActivityReadsTheApprovalsFileAfterARollover(t *testing.T) {
	t.Parallel()
	oct31, nov1 := time.Date(2026, 10, 31, 22, 0, 0, 0, time.UTC), time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	c := &clock{now: oct31}
	path := filepath.Join(t.TempDir(), "approvals.jsonl")
	o := approval.Options{Now: c.Now, TTL: 24 * time.Hour}
	s, err := approval.Open(path, o)
	require.NoError(t, err)
	waiting, err := s.File(action.New(backend.ActionRefund, "43149010", rub("500"), backend.V2), "desk-1", "SHA256:desk")
	require.NoError(t, err)
	claimed, err := s.File(action.New(backend.ActionRefund, "43149011", rub("600"), backend.V2), "desk-1", "SHA256:desk")
	require.NoError(t, err)
	_, err = s.Claim(claimed.ID, "boss-1", "SHA256:boss")
	require.NoError(t, err)
	require.NoError(t, s.Close())

	c.now = nov1 // the server's start: the journal's new file begins now too
	s, err = approval.Open(path, o)
	require.NoError(t, err)
	require.NotEmpty(t, s.Opened().Archived)
	c.now = nov1.Add(5 * time.Minute)
	_, err = s.Claim(waiting.ID, "boss-1", "SHA256:boss")
	require.NoError(t, err)
	require.NoError(t, s.Close())

	rows, damaged, err := readApprovals(path, nov1)
	require.NoError(t, err)
	assert.Zero(t, damaged, "the rollover line is not a damaged line")
	require.Len(t, rows, 1, "only the event since the start; the carried ones are October's")
	assert.Equal(t, "approved", rows[0].Phase)
	assert.Equal(t, waiting.ID, rows[0].RequestID)
	var steps []string
	for _, st := range rows[0].Steps {
		steps = append(steps, st.Phase)
	}
	assert.Equal(t, []string{"filed", "claimed"}, steps, "its filing, carried, is still among its steps")
}
