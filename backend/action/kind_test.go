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

// renamed is an existing kind under another name: a kind known only to
// the tests.
type renamed struct {
	action.Kind
	name backend.ActionName
}

func (k renamed) Action() backend.ActionName { return k.name }

// A backend over the legacy interface (v1) refuses what the kinds say
// exists only in v2 (their V2Only), a kind registered by a test too, and
// nothing else on that ground.
func TestABackendOverV1RefusesWhatTheKindsSayIsV2Only(t *testing.T) {
	action.Register(renamed{Kind: action.KindOf(backend.ActionRevokeToken), name: "test_v2_only"})
	b, err := backend.Open(backend.Config{BaseURL: "https://127.0.0.1:1", V1Login: "login", V1Password: "secret"})
	require.NoError(t, err)
	for _, a := range append(backend.Actions, "test_v2_only") {
		ok, reason := b.Can(a)
		if action.KindOf(a).V2Only() {
			assert.False(t, ok, a)
			assert.Contains(t, reason, "PAYDASH_V2_TOKEN", a)
		} else {
			assert.True(t, ok, a)
		}
	}
}
