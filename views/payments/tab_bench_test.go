package payments

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/sandbox"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

// BenchmarkPaymentsTabKeyPress is one key press on the Payments tab with a
// page of rows loaded from the sandbox: the tab's Update and its View at
// 160x40, as the shell calls them. The list widget's own cost is
// ui/datatable's BenchmarkListKeyPress; this one adds the tab's parts
// (the paged list, the detail, the routing) around it.
func BenchmarkPaymentsTabKeyPress(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := sandbox.Start(ctx, sandbox.Options{Seed: 3, Payments: 3000})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	info := srv.Info()
	be, err := backend.Open(backend.Config{BaseURL: srv.BaseURL(), RootCAs: srv.CertPool(), V2Token: info.V2Token,
		MerchantIDs: info.MerchantIDs, Sandbox: true})
	if err != nil {
		b.Fatal(err)
	}
	km := keys.Default()
	var tab ui.Tab = New(tab.Deps{Backend: be, Keys: km, Theme: ui.NewTheme(true, false)})
	now := time.Now()
	scope := ui.Scope{MerchantID: info.MerchantIDs[0], Start: now.AddDate(0, 0, -30), End: now.Add(time.Hour)}
	tab, _ = tab.Update(ui.SizeMsg{Width: 160, Height: 40})
	pending := []tea.Cmd{tab.Init(scope)}
	for len(pending) > 0 && tab.Status().Rows == 0 {
		cmd := pending[0]
		pending = pending[1:]
		for _, msg := range runSkippingTimers(b, cmd) {
			var next tea.Cmd
			tab, next = tab.Update(msg)
			pending = append(pending, next)
		}
	}
	if tab.Status().Rows == 0 {
		b.Fatal("no rows loaded")
	}
	down := tea.KeyPressMsg{Code: 'j', Text: "j"}
	up := tea.KeyPressMsg{Code: 'k', Text: "k"}
	b.ResetTimer()
	for i := range b.N {
		k := down
		if i%2 == 1 {
			k = up
		}
		tab, _ = tab.Update(k)
		_ = tab.View(160, 40)
	}
}

// runSkippingTimers runs a command and the batches it returns, leaving
// out the timers (execCmd tells them by the function they wait in): a page
// load slowed down by a loaded machine is waited for, not taken for a
// timer and dropped.
func runSkippingTimers(b *testing.B, cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg, ok := viewtest.ExecCmd(b, cmd)
	if !ok {
		return nil
	}
	if batch, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range batch {
			out = append(out, runSkippingTimers(b, c)...)
		}
		return out
	}
	if msg == nil {
		return nil
	}
	return []tea.Msg{msg}
}
