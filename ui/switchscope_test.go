package ui

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A switch with a scope (the Overview opening the rows behind a figure)
// gives every tab the scope first, then the tab switched to what follows.
func TestASwitchWithAScopeSetsItBeforeWhatFollows(t *testing.T) {
	ta := newTestApp(t)
	hour := time.Date(2026, 11, 20, 14, 0, 0, 0, time.UTC)
	s := Scope{MerchantID: "1001", Start: hour, End: hour.Add(time.Hour), Preset: "custom"}
	ta.send(SwitchTabMsg{Tab: "refunds", Scope: &s, Then: SearchMsg{Query: "status:rejected"}})

	assert.Equal(t, 1, ta.active, "the tab switched to is active")
	got := ta.tabs[1].got
	var order []string
	for _, m := range got {
		switch m := m.(type) {
		case ScopeMsg:
			assert.Equal(t, s, m.Scope)
			order = append(order, "scope")
		case SearchMsg:
			assert.Equal(t, "status:rejected", m.Query)
			order = append(order, "search")
		}
	}
	assert.Equal(t, []string{"scope", "search"}, order)
	require.NotEmpty(t, msgsOf[ScopeMsg](ta.tabs[0]), "every tab takes the scope")
	assert.Empty(t, msgsOf[SearchMsg](ta.tabs[0]), "only the tab switched to searches")
}
