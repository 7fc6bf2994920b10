package forms

import (
	"reflect"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// huh's four navigation commands are known: its next and previous field,
// and the page moves its groups return. Should a new huh return them some
// other way, this says so before the burst tests do.
func TestNavigationCommandsAreKnown(t *testing.T) {
	assert.Len(t, navCmds, 4)
}

// Batches and sequences are recognised wherever they were made: here, and
// in huh, whose calls of tea.Batch and tea.Sequence the compiler inlines.
func TestBatchesAndSequencesAreRecognised(t *testing.T) {
	noop := func() tea.Msg { return nil }
	assert.True(t, isList(tea.Batch(noop, noop)))
	assert.True(t, isList(tea.Sequence(noop, noop)))
	assert.False(t, isList(noop))
	assert.False(t, isList(huh.NextField))
	f := NewInvoiceLink(defaults(nil, true))
	assert.True(t, isList(f.hf.Init()), "huh's form starts with a sequence")
}

// settle takes the navigation out of batches and sequences, however deep,
// applies it in order, and runs nothing else: the other commands (a
// cursor's blink, which waits half a second) go out untouched.
func TestSettleRunsOnlyTheNavigation(t *testing.T) {
	f := NewInvoiceLink(defaults(nil, true))
	d := drive(t, f)
	d.typ("5")
	require.Equal(t, "amount", d.focusedKey())
	ran := 0
	other := func() tea.Msg { ran++; return nil }
	rest := f.settle(tea.Sequence(other, tea.Batch(other, tea.Batch(huh.NextField, other)), huh.NextField))
	assert.Equal(t, "description", d.focusedKey(), "both moves made, in order")
	assert.Zero(t, ran, "no other command ran")
	require.NotNil(t, rest)
	d.run(rest)
	assert.Equal(t, 3, ran, "the other commands are all still there")
	assert.Equal(t, "description", d.focusedKey(), "and none of them moves the focus")
}

// No command a form returns carries a navigation message: every move was
// made before Update returned, and none can come back and move again.
func TestNoNavigationIsLeftForLater(t *testing.T) {
	navTypes := map[reflect.Type]bool{
		reflect.TypeOf(huh.NextField()): true,
		reflect.TypeOf(huh.PrevField()): true,
	}
	probe := huh.NewForm(huh.NewGroup(huh.NewNote().Title("probe")))
	for _, c := range []tea.Cmd{probe.NextField(), probe.PrevField()} {
		navTypes[reflect.TypeOf(c())] = true
	}
	require.Len(t, navTypes, 4)

	for name, w := range walks {
		t.Run(name, func(t *testing.T) {
			f := w.make(defaults(nil, true))
			d := drive(t, f)
			d.check = func(m Msg) {
				assert.False(t, navTypes[reflect.TypeOf(m.inner)], "%T left for later", m.inner)
			}
			for _, fill := range w.pages {
				fill(d)
			}
			d.backtab() // a submitted form takes no more keys, this one included
			require.Equal(t, Submitted, f.State())
		})
	}
	// Back across a page, too.
	f := NewInvoiceLink(defaults(nil, true))
	d := drive(t, f)
	d.check = func(m Msg) {
		assert.False(t, navTypes[reflect.TypeOf(m.inner)], "%T left for later", m.inner)
	}
	d.field("5").enter().field("Tea").field("")
	require.Equal(t, "email", d.focusedKey())
	d.backtab()
	assert.Equal(t, "orderNo", d.focusedKey())
}
