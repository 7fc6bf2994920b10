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
//
// open lists, one line each, the actions whose outcome was not known when
// the dashboard stopped (an answer still awaited, or being found out): the
// caller prints them once the screen is restored.
func runUI(ctx context.Context, sess *session, stdout io.Writer) (open []string, err error) {
	deps := sessionDeps(sess)
	p := tea.NewProgram(newApp(sess, deps), tea.WithoutSignalHandler(), tea.WithOutput(stdout))
	ended := make(chan struct{})
	stopSignals := forwardSignals(ctx, p, ended)
	defer stopSignals()
	_, err = p.Run()
	close(ended)
	// Run has returned: no Update runs any more, so the tabs' state can be
	// read here.
	return deps.InFlight.Open(), err
}

// sessionDeps are what the tabs share, from the session.
func sessionDeps(sess *session) views.Deps {
	return views.Deps{
		Backend:   sess.backend,
		Keys:      sess.keys,
		Journal:   sess.journal,
		Now:       time.Now,
		Theme:     ui.ChosenTheme(sess.theme, sess.dark, sess.noColor, sess.colors),
		Pending:   sess.pending,
		Facts:     views.NewPaymentFacts(),
		TypedOver: sess.typedOver,
		InFlight:  views.NewInFlight(),
		Known:     sess.known,
		DebugLog:  sess.debug,
	}
}

// newApp is the dashboard on the session, with the tabs on deps.
func newApp(sess *session, deps views.Deps) *ui.App {
	return ui.New(appConfig(sess, views.Tabs(deps)))
}

// appConfig is the shell's settings for the session, with tabs.
func appConfig(sess *session, tabs []ui.Tab) ui.Config {
	return ui.Config{
		Service:      sess.backend,
		Tabs:         tabs,
		Keys:         sess.keys,
		Scope:        sess.scope,
		Merchants:    sess.merchants,
		RefreshEvery: sess.refresh,
		ServiceNow:   sess.serviceNow,
		NoColor:      sess.noColor,
		NoMouse:      sess.noMouse,
		Theme:        sess.theme,
		Colors:       sess.colors,
		Dark:         sess.dark,
		Warnings:     sess.warnings,
		Notices:      sess.notices,
		RequestLog:   sess.logPath,
		InTmux:       os.Getenv("TMUX") != "",
		DebugLog:     sess.debug,
	}
}

// forwardSignals makes signals stop the dashboard the way q does
// (ui.ShutdownMsg): at once, unless an action is waiting for its answer;
// then after the answer, at most ui.QuitWait, journaling it as abandoned
// if it did not come. A second signal stops it at once. It forwards until
// ended is closed; stop ends the listening.
//
// Bubble Tea's own handling cannot do that, so the program runs without
// its handler (WithoutSignalHandler) and without WithContext, and this
// goroutine does the work. In Bubble Tea v2.1.1 (tea.go):
//   - Program.handleSignals listens to SIGINT and SIGTERM only (not
//     SIGHUP), turns SIGINT into an InterruptMsg (Run returns
//     ErrInterrupted) and SIGTERM into a QuitMsg, both of which
//     Program.eventLoop acts on before the model sees them, and stops
//     listening after the first signal: no wait for answers, and no
//     second signal. (v2.1.1 did fix its v2.0.10 bug, a send on p.msgs
//     that blocked forever once the program had stopped; it now gives
//     up when p.ctx ends.)
//   - A WithContext context that ends makes Program.eventLoop return at
//     once, and Run then takes the kill path, Program.shutdown(true),
//     which still closes the input's cancelreader without waiting for
//     Program.readLoop (waitForReadLoop is skipped when killing), so
//     the reader is closed while it may still be reading.
func forwardSignals(ctx context.Context, p *tea.Program, ended <-chan struct{}) (stop func()) {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP, os.Interrupt)
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
	return func() { signal.Stop(sigs) }
}
