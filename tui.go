package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/ui"
	"paydash/views"
)

// runUI runs the dashboard in the terminal until the user quits or a
// signal stops it. Alt screen and the other terminal modes are set by the
// app's View (Bubble Tea v2).
func runUI(ctx context.Context, sess *session, stdout io.Writer) error {
	deps := views.Deps{
		Backend:   sess.backend,
		Keys:      sess.keys,
		Journal:   sess.journal,
		Now:       time.Now,
		Theme:     ui.NewTheme(true, sess.noColor),
		Pending:   sess.pending,
		TypedOver: sess.typedOver,
	}
	tabs := []ui.Tab{views.NewPayments(deps), views.NewRefunds(deps), views.NewStickers(deps)}
	app := ui.New(ui.Config{
		Service:      sess.backend,
		Tabs:         tabs,
		Keys:         sess.keys,
		Scope:        ui.Scope(sess.scope),
		Merchants:    sess.merchants,
		RefreshEvery: sess.refresh,
		NoColor:      sess.noColor,
		Dark:         true,
		Warnings:     sess.warnings,
	})
	// Signals stop the dashboard the way q does (ui.ShutdownMsg): at once,
	// unless an action is waiting for its answer; then after the answer,
	// at most ui.QuitWait, journaling it as abandoned if it did not come.
	// A second signal stops it at once. Bubble Tea v2.0.10's own handler
	// and its WithContext both misbehave when a signal comes (its handler
	// blocks sending a QuitMsg nobody reads once the context has stopped
	// the program, and the kill path closes the input reader while it is
	// still reading), so the program runs without them.
	p := tea.NewProgram(app, tea.WithoutSignalHandler(), tea.WithOutput(stdout))
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP, os.Interrupt)
	defer signal.Stop(sigs)
	ended := make(chan struct{})
	go func() {
		// main's context ends with the first signal too: that is the same
		// request, not a second one.
		done := ctx.Done()
		for {
			select {
			case sig := <-sigs:
				done = nil
				p.Send(ui.ShutdownMsg{Signal: sig.String()})
			case <-done:
				done = nil
				select {
				case sig := <-sigs: // the signal that ended it, seen second
					p.Send(ui.ShutdownMsg{Signal: sig.String()})
				case <-time.After(100 * time.Millisecond):
					p.Send(ui.ShutdownMsg{Signal: "stop requested"})
				}
			case <-ended:
				return
			}
		}
	}()
	_, err := p.Run()
	close(ended)
	return err
}
