package viewtest

import (
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/views/tab"
)

// Sorting (sort.go) against the real sandbox, driven by keys:
// s opens the chooser, a letter (or the arrows and enter) sorts, S
// reverses; the sort holds across new pages and refreshes, the selection
// stays on its row.

// --- helpers ------------------------------------------------------------------

// OpenSort presses s and returns the chooser the tab asked the shell to
// open.
func (e *Env) OpenSort() *Dialog {
	e.T.Helper()
	e.Press("s")
	d := e.OpenModal()
	require.Contains(e.T, d.Screen(), "Sort the list by")
	return d
}

// letterFor is the letter the chooser gives the column titled title.
func letterFor(t *testing.T, d *Dialog, title string) string {
	t.Helper()
	m := regexp.MustCompile(`\[(.)\] ` + regexp.QuoteMeta(title) + ` [▲▼]`).FindStringSubmatch(d.Screen())
	require.NotNil(t, m, "the chooser offers %s:\n%s", title, d.Screen())
	return m[1]
}

// SortBy sorts the list by the column titled title with its letter.
func (e *Env) SortBy(title string) {
	e.T.Helper()
	d := e.OpenSort()
	d.Press(letterFor(e.T, d, title))
	require.True(e.T, d.Closed, "a letter chooses at once")
}

// OwnOrdered is rows put back in the Payments list's own order (newest
// first: by time, then by id).
func OwnOrdered(rows []backend.Payment) []backend.Payment {
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, b backend.Payment) int {
		if c := tab.PaymentTime(b).Compare(tab.PaymentTime(a)); c != 0 {
			return c
		}
		return tab.CmpIDs(b.ID, a.ID)
	})
	return out
}
