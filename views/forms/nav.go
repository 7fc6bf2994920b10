package forms

import (
	"reflect"
	"runtime"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// Moving the focus at once.
//
// huh moves the focus with messages: a field's Update on enter (tab,
// shift+tab, a yes/no field's y or n) returns the command huh.NextField or
// huh.PrevField; the group answers that message on its last (first) field
// with a command for the next (previous) page, and the form submits on the
// next-page message of its last page. Left to the runtime, those messages
// come back after every key already waiting in the program's input: keys
// typed in a burst after enter would go into the field enter left, and
// keys typed after the last enter into the last field — while the form was
// in fact being submitted.
//
// So the form keeps them to itself: settle goes through the command huh
// returned, runs each navigation command in it (they are pure: each returns
// one constant message), gives huh that message at once, in the order huh
// returned them, and goes on with what that returns. When Update returns,
// the focus is where every move the key asked for has put it, and the next
// key read goes there; a submitting enter has submitted. Whether a move
// happens is still huh's own decision (validation that refuses enter
// returns no NextField, so nothing moves); only its timing changes. The
// rest of the command (a cursor's blink, a field's title refresh) goes out
// to the runtime as before, so nothing waits on a blink's timer, and since
// the navigation messages are taken out of it, none can arrive later and
// move the focus a second time.

// navCmds are the code addresses of huh's navigation commands: the two it
// exports, and the two page moves it does not, found by asking a form of
// one note to leave its only field either way (the group then returns the
// page move alone).
var navCmds = func() map[uintptr]bool {
	nav := map[uintptr]bool{codeOf(huh.NextField): true, codeOf(huh.PrevField): true}
	probe := huh.NewForm(huh.NewGroup(huh.NewNote().Title("probe")))
	for _, c := range []tea.Cmd{probe.NextField(), probe.PrevField()} {
		if c == nil || nav[codeOf(c)] || isList(c) {
			continue // not the lone page move: huh changed; the nav tests say so
		}
		if msg := c(); msg != nil && owned(msg) && reflect.TypeOf(msg).Kind() == reflect.Struct {
			nav[codeOf(c)] = true
		}
	}
	return nav
}()

// codeOf is the address of a command's code: the same for every command
// made by the same function or function literal.
func codeOf(c tea.Cmd) uintptr { return reflect.ValueOf(c).Pointer() }

// isList reports whether c is a command of tea.Batch or tea.Sequence, which
// does nothing but return the commands it was given. The compiler copies
// their function literal into each caller it inlines them into (huh's
// Update methods among them), so the copies have different addresses; they
// are told by their name, which keeps that of bubbletea's compactCmds.
func isList(c tea.Cmd) bool {
	fn := runtime.FuncForPC(codeOf(c))
	return fn != nil && strings.Contains(fn.Name(), ".compactCmds[")
}

// settle applies at once the navigation in cmd, a command huh returned,
// and returns the rest of cmd, batches and sequences kept as they were.
func (f *Form) settle(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	if navCmds[codeOf(cmd)] {
		_, next := f.hf.Update(cmd())
		return f.settle(next)
	}
	if !isList(cmd) {
		return cmd
	}
	msg := cmd() // only returns its commands
	batch, isBatch := msg.(tea.BatchMsg)
	parts, isSeq := sequence(msg)
	switch {
	case isBatch:
		parts = batch
	case !isSeq:
		return func() tea.Msg { return msg }
	}
	out := make([]tea.Cmd, 0, len(parts))
	for _, p := range parts {
		out = append(out, f.settle(p))
	}
	if isBatch {
		return tea.Batch(out...)
	}
	return tea.Sequence(out...)
}
