package registers

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

// --- Registers -------------------------------------------------------------------

func TestCopyMoreRegisters(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, viewtest.Opts{})
	e.Size(120, 30)
	e.Init()
	r := e.Tab.(*Registers)
	tr, ok := r.transfers.Selected()
	require.True(t, ok, "the sandbox has transfers")

	c := e.CopyChooser()
	text := viewtest.ChooserText(c)
	assert.Contains(t, text, "Copy from the transfer of "+transferDay(tr.Created))
	clip, toast := viewtest.Choose(t, c, "o")
	assert.Equal(t, tr.PaymentOrderID, clip)
	assert.Equal(t, "Payment order sent to the terminal's clipboard: "+tr.PaymentOrderID, toast)
	clip, _ = viewtest.Choose(t, e.CopyChooser(), "down", "enter")
	assert.Equal(t, tr.RegisterID, clip)

	// In the register's pane: the same transfer.
	e.Press("enter")
	require.True(t, r.Register.IsOpen())
	clip, _ = viewtest.Choose(t, e.CopyChooser(), "a")
	assert.Equal(t, tab.FmtAmount(tr.Amount), clip)
	e.Press("esc")
	require.False(t, r.Register.IsOpen())

	// The documents.
	e.Press("d")
	require.True(t, r.docs)
	doc, ok := r.Documents.Selected()
	require.True(t, ok, "the sandbox has documents")
	clip, toast = viewtest.Choose(t, e.CopyChooser(), "f")
	assert.Equal(t, doc.FileName, clip)
	assert.Equal(t, "File name sent to the terminal's clipboard: "+doc.FileName, toast)
	e.Press("enter")
	require.True(t, r.document.isOpen())
	clip, _ = viewtest.Choose(t, e.CopyChooser(), "f")
	assert.Equal(t, doc.FileName, clip, "from the open document too")
}
