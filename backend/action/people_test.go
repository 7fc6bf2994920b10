package action_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/journal"
)

// Who asked for an action, and who approved it, is on every line of it,
// and an action found out after a restart still names them.
func TestWhoDidItIsOnEveryLineAndReadsBack(t *testing.T) {
	srv := startSandbox(t)
	f := newFixture(t, srv, setups[0])
	paid := f.pay("1000", false)
	people := func(r action.Request) action.Request {
		r.Person, r.Approver, r.ApproverKey = "anna", "boris", "SHA256:boris-key"
		return r
	}

	req, o := f.run.Send(context.Background(), people(action.New(backend.ActionRefund, paid, rub("100"), backend.V2)))
	require.Equal(t, action.Done, o.State, "%v", o.Err)
	assert.Equal(t, []string{journal.PhaseSent, journal.PhaseDone}, f.phases(req))

	// A lost answer (the context ended): sent, unknown, abandoned, all
	// open, and Pending rebuilds the people from them.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	lost, o := f.run.Send(ctx, people(action.New(backend.ActionRefund, paid, rub("50"), backend.V2)))
	require.Equal(t, action.Unknown, o.State, "%v", o.Err)
	require.NoError(t, f.run.Abandon(lost, "paydash quit"))

	for _, e := range f.journal() {
		assert.Equal(t, "anna", e.Person, "%s line", e.Phase)
		assert.Equal(t, "boris", e.Approver, "%s line", e.Phase)
		assert.Equal(t, "SHA256:boris-key", e.ApproverKey, "%s line", e.Phase)
	}
	pending := action.Pending(f.journal())
	require.Len(t, pending, 1)
	assert.Equal(t, lost.ID, pending[0].ID)
	assert.Equal(t, "anna", pending[0].Person)
	assert.Equal(t, "boris", pending[0].Approver)
	assert.Equal(t, "SHA256:boris-key", pending[0].ApproverKey)

	// Rebuilt from its abandoned line alone (the sent line torn away), it
	// still names them.
	var last journal.Entry
	for _, e := range f.journal() {
		if e.ActionID == lost.ID {
			last = e
		}
	}
	alone := action.Pending([]journal.Entry{last})
	require.Len(t, alone, 1)
	assert.Equal(t, "anna", alone[0].Person)
	assert.Equal(t, "boris", alone[0].Approver)
}

// The single-user paydash names nobody: its lines have no such fields, and
// a line of an older paydash reads with them empty.
func TestLinesWithoutPeopleReadAsBefore(t *testing.T) {
	e := line(0, "a", "refund", journal.PhaseSent, "1", "k-a")
	got := action.Pending([]journal.Entry{e})
	require.Len(t, got, 1)
	assert.Empty(t, got[0].Person)
	assert.Empty(t, got[0].Approver)
	assert.Empty(t, got[0].ApproverKey)

	srv := startSandbox(t)
	f := newFixture(t, srv, setups[0])
	_, o := f.run.Send(context.Background(), action.New(backend.ActionRefund, f.pay("1000", false), rub("10"), backend.V2))
	require.Equal(t, action.Done, o.State, "%v", o.Err)
	raw := readRaw(t, f.jpath)
	assert.NotContains(t, raw, `"person"`)
	assert.NotContains(t, raw, `"approver`)
}

func readRaw(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}
