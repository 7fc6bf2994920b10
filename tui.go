package main

import (
	"context"
	"io"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/ui"
	"paydash/views"
)

// runUI runs the dashboard in the terminal until the user quits or ctx ends
// (SIGTERM). Alt screen and the other terminal modes are set by the app's
// View (Bubble Tea v2).
func runUI(ctx context.Context, sess *session, stdout io.Writer) error {
	deps := views.Deps{
		Backend: sess.backend,
		Keys:    sess.keys,
		Journal: sess.journal,
		Now:     time.Now,
		Theme:   ui.NewTheme(true, sess.noColor),
	}
	tabs := []ui.Tab{views.NewPayments(deps), views.NewRefunds(deps)}
	app := ui.New(ui.Config{
		Backend:      sess.backend,
		Tabs:         tabs,
		Keys:         sess.keys,
		Scope:        ui.Scope(sess.scope),
		Merchants:    sess.merchants,
		RefreshEvery: sess.refresh,
		NoColor:      sess.noColor,
		Dark:         true,
	})
	// One way to stop on a signal: main's context (SIGINT, SIGTERM) asks the
	// program to quit as q does. Bubble Tea v2.0.10's own handler and its
	// WithContext both misbehave when a signal comes: its handler blocks
	// sending a QuitMsg nobody reads once the context has stopped the
	// program (it never exits), and the kill path closes the input reader
	// while it is still reading (a data race).
	p := tea.NewProgram(app, tea.WithoutSignalHandler(), tea.WithOutput(stdout))
	ended := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			p.Quit()
		case <-ended:
		}
	}()
	_, err := p.Run()
	close(ended)
	return err
}
