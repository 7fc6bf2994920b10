package activity

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/journal"
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

func TestMain(m *testing.M) { viewtest.Main(m, New) }

var t0 = viewtest.GoldenNow.Add(-2 * time.Hour)

// line is a journal line of action id at minute min after t0.
func line(id, act, phase string, min int, f func(*journal.Entry)) journal.Entry {
	e := journal.Entry{Time: t0.Add(time.Duration(min) * time.Minute), ActionID: id, Action: act, Phase: phase,
		ObjectID: "4314901" + id[len(id)-1:], Interface: "v2", IdempotencyKey: "key-" + id}
	if f != nil {
		f(&e)
	}
	return e
}

func refund(amount string) func(*journal.Entry) {
	return func(e *journal.Entry) { e.Amount, e.Currency = amount, "RUB" }
}

func by(person, approver string, more func(*journal.Entry)) func(*journal.Entry) {
	return func(e *journal.Entry) {
		e.Person, e.Approver = person, approver
		if approver != "" {
			e.ApproverKey = "SHA256:boris"
		}
		if more != nil {
			more(e)
		}
	}
}

// team is a morning of four people's actions, each ending otherwise.
func team() []journal.Entry {
	return []journal.Entry{
		line("a1", "refund", journal.PhaseSent, 0, by("anna", "", refund("500.00"))),
		line("a2", "capture", journal.PhaseSent, 1, by("boris", "", refund("1200.00"))),
		line("a1", "refund", journal.PhaseDone, 2, by("anna", "", func(e *journal.Entry) {
			refund("500.00")(e)
			e.Result, e.How = "refund 7000123 Pending", "answered"
		})),
		line("a3", "revoke_token", journal.PhaseSent, 3, by("carl", "", nil)),
		line("a2", "capture", journal.PhaseFailed, 4, by("boris", "", func(e *journal.Entry) { e.Error = "the payment is Cancelled" })),
		line("a3", "revoke_token", journal.PhaseUnknown, 5, by("carl", "", func(e *journal.Entry) { e.Error = "timeout" })),
		line("a4", "refund", journal.PhaseSent, 6, by("anna", "boris", refund("90000.00"))),
		line("a4", "refund", journal.PhaseAbandoned, 7, by("anna", "boris", func(e *journal.Entry) {
			refund("90000.00")(e)
			e.Error = "paydash stopped before the answer"
		})),
		// An "abandoned" written on quit after the answer: the outcome stays done.
		line("a1", "refund", journal.PhaseAbandoned, 8, by("anna", "", refund("500.00"))),
		line("a5", "cancel_hold", journal.PhaseSent, 9, by("dana", "", refund("10.00"))),
	}
}

func started(t *testing.T, entries []journal.Entry, w, h int) (*viewtest.Env, *Activity) {
	t.Helper()
	e := viewtest.New(t, viewtest.Opts{Fixed: viewtest.GoldenNow})
	for _, en := range entries {
		require.NoError(t, e.J.Record(en))
	}
	e.Start(w, h)
	return e, e.Tab.(*Activity)
}

func TestActivityGroupsLinesByActionNewestFirst(t *testing.T) {
	t.Parallel()
	_, a := started(t, team(), 120, 30)
	rows := a.List.Table.Shown()
	require.Len(t, rows, 5, "one row an action")
	var ids []string
	for _, r := range rows {
		ids = append(ids, r.ID)
	}
	assert.Equal(t, []string{"a5", "a4", "a3", "a2", "a1"}, ids, "newest first, by the time it was sent")
	a1 := rows[4]
	assert.Equal(t, t0, a1.Sent.UTC(), "the time of its sent line")
	assert.Len(t, a1.Steps, 3)
	assert.Equal(t, "refund of 500.00 RUB for payment 43149011", what(a1))
	assert.Equal(t, "anna", rows[1].Person)
	assert.Equal(t, "boris", rows[1].Approver)
}

func TestActivityOutcomeOfEachPhase(t *testing.T) {
	t.Parallel()
	_, a := started(t, team(), 120, 30)
	got := map[string]string{}
	for _, r := range a.List.Table.Shown() {
		got[r.ID] = outcome(r)
	}
	assert.Equal(t, map[string]string{
		"a1": "done: refund 7000123 Pending", // the later "abandoned" does not undo it
		"a2": "failed: the payment is Cancelled",
		"a3": "unknown: timeout",
		"a4": "abandoned: paydash stopped before the answer",
		"a5": "sent: no answer yet",
	}, got)
}

func TestActivityFiltersByPersonAndApprover(t *testing.T) {
	t.Parallel()
	e, a := started(t, team(), 120, 30)
	ids := func() (out []string) {
		for _, r := range a.List.Table.Shown() {
			out = append(out, r.ID)
		}
		return out
	}
	e.Press("/")
	e.TypeText("person:anna")
	e.Press("enter")
	assert.Equal(t, []string{"a4", "a1"}, ids())
	e.Press("/")
	for range len("person:anna") {
		e.Press("backspace")
	}
	e.TypeText("approver:boris")
	e.Press("enter")
	assert.Equal(t, []string{"a4"}, ids())
}

func TestActivityKeepsTheNewestActionsAndSaysHowManyWereCut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.jsonl")
	j, err := journal.Open(path)
	require.NoError(t, err)
	n := MaxActions + 3
	for i := range n {
		require.NoError(t, j.Record(journal.Entry{Time: t0.Add(time.Duration(i) * time.Second), ActionID: fmt.Sprintf("x%05d", i),
			Action: "revoke_token", Phase: journal.PhaseSent, ObjectID: "tok"}))
	}
	require.NoError(t, j.Close())
	rows, err := loadRows(path, "")
	require.NoError(t, err)
	require.Len(t, rows, MaxActions)
	assert.Equal(t, fmt.Sprintf("x%05d", n-1), rows[0].ID, "the newest first")
	assert.Equal(t, "x00003", rows[MaxActions-1].ID, "the three oldest are cut")
	assert.Equal(t, "— end: the newest 10,000 actions; 3 older ones this month are not shown —", rows[MaxActions-1].end)
	assert.Empty(t, rows[0].end)
}

func TestActivityEndTextSaysTheCut(t *testing.T) {
	t.Parallel()
	_, a := started(t, team(), 120, 30)
	rows := a.List.Table.Shown()
	rows[len(rows)-1].end = endNote(7, 0)
	a.rows(rows)
	assert.Contains(t, viewtest.Flat(a.View(120, 30)), "7 older ones this month are not shown")
}

func TestActivityReadsAgainWhenAnActionEnds(t *testing.T) {
	t.Parallel()
	e, a := started(t, team(), 120, 30)
	require.NoError(t, e.J.Record(line("a6", "refund", journal.PhaseSent, 20, by("erik", "", refund("1.00")))))
	assert.Len(t, a.List.Table.Shown(), 5, "not read again by itself")
	e.Send(tab.ChangedMsg{})
	rows := a.List.Table.Shown()
	require.Len(t, rows, 6)
	assert.Equal(t, "a6", rows[0].ID)
	require.NoError(t, e.J.Record(line("a6", "refund", journal.PhaseDone, 21, by("erik", "", nil))))
	e.Send(ui.RefreshMsg{Now: viewtest.GoldenNow})
	assert.Equal(t, "done", a.List.Table.Shown()[0].Phase)
}

func TestActivityExportsTheActionsShown(t *testing.T) {
	t.Parallel()
	e, _ := started(t, team(), 120, 30)
	e.Send(viewtest.Ctrl('s'))
	d := e.OpenModal()
	assert.Contains(t, viewtest.BoxText(d.Screen()), "> activity-"+viewtest.GoldenNow.Format("2006-01-02")+".csv")
	path := filepath.Join(t.TempDir(), "activity.csv")
	d.SaveTo(path)
	require.True(t, d.Closed, d.Screen())
	e.Saved()
	recs := viewtest.ReadCSVFile(t, path)
	require.Len(t, recs, 6)
	assert.Equal(t, []string{"action_id", "sent_utc", "person", "approver", "approver_key", "action", "object_id",
		"amount", "currency", "phase", "result", "error", "how", "approval_id", "decided_by", "reason"}, recs[0])
	assert.Equal(t, []string{"a4", t0.Add(6 * time.Minute).Format(time.RFC3339), "anna", "boris", "SHA256:boris", "refund",
		"43149014", "90000.00", "RUB", "abandoned", "", "paydash stopped before the answer", "", "", "", ""}, recs[2])
	assert.Equal(t, []string{"a1", t0.Format(time.RFC3339), "anna", "", "", "refund", "43149011", "500.00", "RUB",
		"done", "refund 7000123 Pending", "", "answered", "", "", ""}, recs[5])
}

func TestGoldenActivity80x24(t *testing.T) {
	t.Parallel()
	_, a := started(t, team(), 80, 24)
	viewtest.GoldenCheck(t, "list", a.View(80, 24))
}
