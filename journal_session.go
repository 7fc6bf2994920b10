package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/x/term"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/journal"
	"paydash/ui"
)

// openJournal opens the journal at jpath for the service cfg reaches, and
// puts in sess the actions it holds without an outcome that were sent to
// that service (sess.pending, found out once the dashboard is up) and a
// warning for every other service that has some (never sent anywhere from
// here; docs/journal.md). progress (nil: none) shows a long read.
func openJournal(ctx context.Context, jpath string, cfg backend.Config, sess *session, progress io.Writer) error {
	here := action.ServicesOf(cfg)
	opts := journal.Options{Services: here, Context: ctx}
	if progress != nil {
		opts.Progress = progressLine(progress)
	}
	j, err := journal.OpenWith(jpath, opts)
	if errors.Is(err, journal.ErrInUse) {
		return err // its message says what to do
	}
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return fmt.Errorf("%v; give --journal PATH somewhere paydash may write", err)
	}
	sess.journal = j
	// The journal is locked now: what it holds without an outcome was left
	// by a run that has ended, and is found out once the dashboard is up.
	op := j.Opened()
	if op.Recovered != "" {
		sess.warnings = append(sess.warnings, op.Recovered)
	}
	if c := op.Corrupt; c != nil {
		sess.warnings = append(sess.warnings, fmt.Sprintf("the journal %s has %d line(s) that are not entries (first: line %d); they were skipped",
			c.Path, len(c.Lines), c.Lines[0]))
	}
	if op.RolloverErr != nil {
		sess.warnings = append(sess.warnings, fmt.Sprintf("the journal could not be rolled over (%v); it goes on in the same file, and the next start tries again",
			op.RolloverErr))
	}
	mine, elsewhere := action.PendingHere(op.Open, here)
	for i, e := range elsewhere {
		if e.Service.Embedded {
			// An earlier run's embedded sandbox ended with it: nothing
			// real was at stake and nothing can ever be checked, so a
			// warning says so without a dialog at every start.
			sess.warnings = append(sess.warnings, e.Text)
			continue
		}
		// An action in doubt is news the user must not miss: a notice,
		// not a toast that goes by.
		sess.notices = append(sess.notices, ui.Notice{Title: elsewhereTitle, ID: fmt.Sprintf("elsewhere-%d", i),
			Level: ui.ToastWarning, Text: e.Text})
	}
	sess.pending = mine
	return nil
}

// elsewhereTitle heads the notice of actions left open on other services.
const elsewhereTitle = "Actions left open on other services — not checked here"

// journalProgress is where a long read of the journal at start is shown:
// stderr when it is a terminal (the dashboard has not taken it yet), else
// nowhere.
func journalProgress() io.Writer {
	if term.IsTerminal(os.Stderr.Fd()) {
		return os.Stderr
	}
	return nil
}

// progressShownFrom is the size of journal whose read is shown: a smaller
// one is read before anyone could read the line.
const progressShownFrom = 64 << 20

// progressLine writes "paydash: rolling the journal over: 412 MB of 1.0
// GB…" to w, rewritten in place, and clears it when the read is over.
func progressLine(w io.Writer) func(journal.Progress) {
	shown := false
	return func(p journal.Progress) {
		if p.Total < progressShownFrom {
			return
		}
		if p.Read >= p.Total {
			if shown {
				fmt.Fprint(w, "\r\x1b[K")
			}
			return
		}
		what := "reading the journal"
		if p.RollingOver {
			what = "rolling the journal over"
		}
		fmt.Fprintf(w, "\r\x1b[Kpaydash: %s: %s of %s…", what, journalBytes(p.Read), journalBytes(p.Total))
		shown = true
	}
}

// journalBytes is n bytes for people: "412 MB", "1.0 GB".
func journalBytes(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%d MB", n/1e6)
	}
	return fmt.Sprintf("%d kB", n/1e3)
}
