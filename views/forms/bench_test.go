package forms

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// BenchmarkKeystroke is one typed character and the redraw that follows,
// what the dashboard pays per key while a form is open.
func BenchmarkKeystroke(b *testing.B) {
	f := NewInvoiceLink(defaults(nil, false))
	f.Init()
	f.View(dialogW, dialogH)
	keys := []tea.KeyPressMsg{{Code: '1', Text: "1"}, {Code: tea.KeyBackspace}}
	i := 0
	for b.Loop() {
		f.Update(keys[i%2])
		f.View(dialogW, dialogH)
		i++
	}
}
