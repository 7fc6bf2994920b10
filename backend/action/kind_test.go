package action_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
)

// Every action is one registered kind, under its own name; a name cannot
// be taken twice; a name no kind has still describes itself.
func TestEveryActionIsOneRegisteredKind(t *testing.T) {
	for _, a := range backend.Actions {
		k, ok := action.Lookup(a)
		require.True(t, ok, a)
		assert.Equal(t, a, k.Action())
		assert.Panics(t, func() { action.Register(k) }, "%s registered twice", a)
	}
	k := action.KindOf("refund_twice")
	assert.Equal(t, backend.ActionName("refund_twice"), k.Action())
	_, locks := k.Locks(action.Request{Kind: "refund_twice", ObjectID: "43149010"})
	assert.False(t, locks)
	assert.Equal(t, `action "refund_twice" of an unknown amount on 43149010`,
		action.Describe(action.Request{Kind: "refund_twice", ObjectID: "43149010"}))
}
