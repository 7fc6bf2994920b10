package forms

import (
	"reflect"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// A form's own messages: huh's and its widgets' messages travel as Msg,
// tagged with the form, so that they cannot be mistaken for the
// dashboard's own or reach a form opened later.

// Msg carries one of a form's own messages (the cursor's blink, a field's
// refresh) back to it. Route every Msg to the open form's Update; a Msg of a
// form that is no longer open is ignored by the next one.
type Msg struct {
	form  uint64
	inner tea.Msg
}

// ForModal implements ui.ModalMsg: the shell gives a form's messages to
// the open dialog.
func (Msg) ForModal() {}

// tag makes the messages of cmd come back as this form's Msg. Batches and
// sequences are tagged one command at a time, so that the runtime still
// runs them as batches and sequences. Messages that are not huh's or its
// widgets' (a request to the runtime, such as the window size huh asks for
// on Init) go out untagged.
func (f *Form) tag(cmd tea.Cmd) tea.Cmd {
	return tagCmd(f.id, cmd)
}

// skipCmd, when set (by tests), drops commands before they run.
var skipCmd func(tea.Cmd) bool

func tagCmd(id uint64, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		if skipCmd != nil && skipCmd(cmd) {
			return nil
		}
		return tagMsg(id, cmd())
	}
}

func tagMsg(id uint64, msg tea.Msg) tea.Msg {
	switch m := msg.(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		out := make(tea.BatchMsg, 0, len(m))
		for _, c := range m {
			if c != nil {
				out = append(out, tagCmd(id, c))
			}
		}
		return out
	}
	if cmds, ok := sequence(msg); ok {
		var out []tea.Cmd
		for _, c := range cmds {
			if c != nil {
				out = append(out, tagCmd(id, c))
			}
		}
		switch len(out) {
		case 0:
			return nil
		case 1:
			return out[0]()
		}
		return tea.Sequence(out...)()
	}
	if msg == windowSizeRequest {
		// huh asks for the window size each time a form starts (at every
		// page and relayout). The dashboard knows its size and tells the
		// form, and two requests at once race in the runtime (bubbletea
		// v2.1.1 answers each in a goroutine that writes the program's
		// size unsynchronized): it is not passed on.
		return nil
	}
	if !owned(msg) {
		return msg
	}
	return Msg{form: id, inner: msg}
}

// windowSizeRequest is the message of tea.RequestWindowSize.
var windowSizeRequest = tea.RequestWindowSize()

var cmdType = reflect.TypeFor[tea.Cmd]()

// sequence recognises tea.Sequence's message (its type is unexported): a
// slice of commands that is not a BatchMsg.
func sequence(msg tea.Msg) ([]tea.Cmd, bool) {
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice || v.Type().Elem() != cmdType {
		return nil, false
	}
	return v.Convert(reflect.TypeFor[[]tea.Cmd]()).Interface().([]tea.Cmd), true
}

// owned: a message of huh or of the Bubbles widgets inside it.
func owned(msg tea.Msg) bool {
	t := reflect.TypeOf(msg)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	p := t.PkgPath()
	return strings.HasPrefix(p, "charm.land/huh/") || strings.HasPrefix(p, "charm.land/bubbles/")
}
