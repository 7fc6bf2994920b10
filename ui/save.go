package ui

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"paydash/backend/textsafe"
	"paydash/keys"
)

// SaveSpec describes what to save.
type SaveSpec struct {
	Title       string // "Save register R-1001-20261101"
	What        string // one line: "the XML as received, 13.2 MB" / "the operations as CSV (50,000 rows)"
	DefaultPath string // prefilled, e.g. "register-R-1001-20261101.xml" (relative: the working directory)
	// Data produces the bytes to write; it runs in a tea.Cmd (never in
	// Update), may be slow (CSV of 50,000 rows, or a download), and may
	// fail. Its context is cancelled when the user gives up (esc) before
	// it returns.
	Data func(ctx context.Context) ([]byte, error)
	// DataFor, when set, is used instead of Data and is given the path
	// saved to (as typed), so that the data can follow it (an export's
	// format follows the extension). What it produced is reused only for
	// the same path: another path produces the data again.
	DataFor func(ctx context.Context, path string) ([]byte, error)
}

// saveFileMode is the mode of the files the save dialog creates (before
// the umask): readable by the user only, as they hold a merchant's
// payments and customers' details; the user widens it if they mean to.
// An overwritten file gets it too (it is replaced, not rewritten).
const saveFileMode fs.FileMode = 0o600

// savePathLimit bounds the path field (runes).
const savePathLimit = 1024

// saveIDs numbers the save dialogs, so that an answer meant for another
// (an earlier one, closed) is told apart.
var saveIDs atomic.Uint64

// saveState is where the save dialog is.
type saveState int

const (
	saveEditing   saveState = iota // the path field has the focus
	saveProducing                  // spec.Data runs; esc gives up, nothing is written yet
	saveWriting                    // the file is being written; keys wait
	saveAsking                     // the file exists: overwrite it?
)

// saveModal is the "save to file" dialog; see NewSave.
type saveModal struct {
	id    uint64
	spec  SaveSpec
	title string
	what  string
	km    keys.Map
	th    Theme

	input   textinput.Model
	state   saveState
	attempt int    // numbers the commands run, so only the last one's answer counts
	problem string // why the last save did not happen (th.Danger)
	note    string // why the last key did nothing (th.Warning)

	cancel  context.CancelFunc // gives up spec.Data (saveProducing)
	data    []byte             // what spec.Data produced: kept, never produced twice
	have    bool               // data was produced
	forPath string             // the path spec.DataFor produced data for

	// The file that exists (saveAsking), as the question names it.
	target  string
	linkTo  string // target is a symbolic link to this regular file, which y replaces
	about   string // "12.3 kB, modified 23 Nov 14:02"
	askedAt time.Time

	closed bool // saved or cancelled: it acts no more
}

// Answers of the save dialog's commands: the shell routes them to the open
// dialog (ModalMsg), which drops those of another dialog or attempt.
type (
	saveDataMsg struct {
		id      uint64
		attempt int
		data    []byte
		err     error // spec.Data failed, or the path cannot be written at all
		problem string
	}
	saveDoneMsg struct {
		id      uint64
		attempt int
		abs     string // the file written, or the path that exists
		via     string // abs was written through this symbolic link
		size    int
		exists  bool   // the file exists: nothing was written
		linkTo  string // it is a symbolic link to this regular file
		about   string // the existing file: size, modification time
		problem string // why nothing was written ("" when saved or exists)
	}
)

func (saveDataMsg) ForModal() {}
func (saveDoneMsg) ForModal() {}

// NewSave builds the "save to file" dialog: the title, what is saved, and
// the path field, focused and prefilled with spec.DefaultPath (cursor at
// its end). enter saves: spec.Data runs in a command (esc gives up while
// it runs, and nothing is written), then the bytes are written to a new
// file, created exclusively (O_EXCL, never through a symbolic link), so an
// existing file is never replaced behind the user's back. When a regular
// file exists the dialog asks; y replaces it atomically (a temporary file
// in the same folder renamed over it) with the bytes already produced, n
// or esc go back to the path. Only regular files are written: a named
// pipe, a device, a socket or a folder at the path is refused at once,
// before the data is made, with a line saying what it is. A symbolic link
// is asked about as one, naming the file it points to, and y replaces
// that file (the link stays; nothing is written if the link changed since
// the question); a link to anything but a regular file, or to nothing, is
// refused like the thing itself (docs/files.md). While the file is written
// keys wait. A path starting with ~/ is in the
// home folder; a relative one in the working directory. Problems (no such
// folder, a folder named, no permission) are shown in the dialog, which
// stays open. Once saved it closes with a ToastMsg naming the size and
// the absolute path. Files are created with mode 0600.
func NewSave(spec SaveSpec, km keys.Map, th Theme) Modal {
	s := &saveModal{
		id:    saveIDs.Add(1),
		spec:  spec,
		title: textsafe.Line(spec.Title, 200),
		what:  textsafe.Line(spec.What, 300),
		km:    km,
		th:    th,
	}
	if s.title == "" {
		s.title = "Save to a file"
	}
	s.input = newInput(th, "file name or path", savePathLimit)
	// No clipboard reads from a dialog: the terminal's paste works.
	s.input.KeyMap.Paste = key.NewBinding()
	s.input.SetWidth(66) // "> ", the field and its cursor in the widest box
	s.input.SetValue(cleanPath(spec.DefaultPath))
	s.input.Focus()
	s.input.CursorEnd()
	return s
}

// cleanPath is a path as the field holds it: printable, one line, no
// spaces around it. What the field shows is what is saved to.
func cleanPath(p string) string {
	return strings.TrimSpace(textsafe.Clean(p))
}

func (s *saveModal) Context() keys.Context {
	if s.state == saveEditing {
		return keys.ContextModalField
	}
	return keys.ContextModal
}

// saveKeys are the keys that save from the field: the modal's "leave the
// field" keys but tab, which people press for completion.
func (s *saveModal) saveKeys() []string {
	var out []string
	for _, k := range untyped(s.km.Modal.LeaveField.Keys()) {
		if k != "tab" && k != "shift+tab" {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		return []string{"enter"}
	}
	return out
}

func (s *saveModal) cancelKeys() []string {
	if ks := untyped(s.km.Modal.Cancel.Keys()); len(ks) > 0 {
		return ks
	}
	return []string{"esc"}
}

func (s *saveModal) pressed(press tea.KeyPressMsg, ks []string) bool {
	return keys.Matches(press, key.NewBinding(key.WithKeys(ks...)))
}

func (s *saveModal) Update(msg tea.Msg, now time.Time) (Modal, tea.Cmd, bool) {
	if s.closed {
		return s, nil, true
	}
	switch m := msg.(type) {
	case saveDataMsg:
		return s.produced(m)
	case saveDoneMsg:
		return s.written(m, now)
	case tea.PasteMsg:
		if s.state == saveEditing {
			s.input, _ = s.input.Update(tea.PasteMsg{Content: textsafe.Line(m.Content, savePathLimit)})
			s.problem, s.note = "", ""
		}
		return s, nil, false
	case tea.KeyPressMsg:
		switch s.state {
		case saveEditing:
			return s.updateField(m)
		case saveProducing:
			if s.pressed(m, s.cancelKeys()) {
				s.cancel()
				return s.close(nil) // nothing was written: the data was not there yet
			}
			s.note = "getting the data; " + keys.Label(s.cancelKeys()) + " cancels"
		case saveWriting:
			s.note = "writing the file: keys wait until it is done"
		case saveAsking:
			return s.updateAsking(m, now)
		}
	}
	return s, nil, false
}

func (s *saveModal) updateField(press tea.KeyPressMsg) (Modal, tea.Cmd, bool) {
	s.note = ""
	action, _, _ := s.km.Lookup(press, keys.ContextModalField)
	switch {
	case action == keys.ActModalCancel:
		return s.close(nil)
	case s.pressed(press, s.saveKeys()):
		return s.save()
	case action == keys.ActModalLeaveField:
		s.note = "no completion here: type the path; " + keys.Label(s.saveKeys()) + " saves"
		return s, nil, false
	}
	before := s.input.Value()
	var cmd tea.Cmd
	s.input, cmd = s.input.Update(press)
	if s.input.Value() != before {
		s.problem = ""
	}
	return s, cmd, false
}

// save starts saving to the field's path: the data first (unless it was
// produced already), then the file.
func (s *saveModal) save() (Modal, tea.Cmd, bool) {
	path := strings.TrimSpace(s.input.Value())
	switch {
	case path == "":
		s.problem = "type a file name or a path to save to"
		return s, nil, false
	case strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(filepath.Separator)):
		s.problem = "the path ends with a folder: add a file name"
		return s, nil, false
	}
	if s.have && s.spec.DataFor != nil && s.forPath != path {
		s.data, s.have = nil, false // made for another path
	}
	if !s.have && s.spec.Data == nil && s.spec.DataFor == nil {
		s.problem = "there is nothing to save"
		return s, nil, false
	}
	s.problem = ""
	s.attempt++
	s.input.Blur()
	if s.have {
		s.state = saveWriting
		return s, s.writeCmd(path, "", "", s.data), false
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.state, s.cancel = saveProducing, cancel
	id, attempt, produce := s.id, s.attempt, s.spec.Data
	if forPath := s.spec.DataFor; forPath != nil {
		produce = func(ctx context.Context) ([]byte, error) { return forPath(ctx, path) }
	}
	return s, func() tea.Msg {
		// Fail early on a path that cannot be written whatever the data
		// (a typo in a folder) rather than after a slow export.
		if _, problem := resolveSavePath(path); problem != "" {
			return saveDataMsg{id: id, attempt: attempt, problem: problem}
		}
		data, err := produce(ctx)
		return saveDataMsg{id: id, attempt: attempt, data: data, err: err}
	}, false
}

// produced takes spec.Data's answer: on to writing, or back to the field.
func (s *saveModal) produced(m saveDataMsg) (Modal, tea.Cmd, bool) {
	if m.id != s.id || m.attempt != s.attempt || s.state != saveProducing {
		return s, nil, false
	}
	s.cancel()
	s.note = ""
	switch {
	case m.problem != "":
		return s.back(m.problem)
	case m.err != nil:
		return s.back("could not get the data: " + textsafe.Line(m.err.Error(), 300))
	}
	s.data, s.have = m.data, true
	s.forPath = strings.TrimSpace(s.input.Value())
	s.state = saveWriting
	return s, s.writeCmd(strings.TrimSpace(s.input.Value()), "", "", s.data), false
}

// written takes the file's answer: saved (the dialog closes), exists (ask)
// or a problem (back to the field).
func (s *saveModal) written(m saveDoneMsg, now time.Time) (Modal, tea.Cmd, bool) {
	if m.id != s.id || m.attempt != s.attempt || s.state != saveWriting {
		return s, nil, false
	}
	s.note = ""
	switch {
	case m.problem != "":
		return s.back(m.problem)
	case m.exists:
		s.state, s.target, s.linkTo, s.about, s.askedAt = saveAsking, m.abs, m.linkTo, m.about, now
		return s, nil, false
	}
	text := "Saved " + HumanBytes(int64(m.size)) + " to " + m.abs
	if m.via != "" {
		text += " (through the link " + m.via + ")"
	}
	toast := ToastMsg{Level: ToastSuccess, Text: text}
	return s.close(func() tea.Msg { return toast })
}

// close closes the dialog for good, letting go of the data.
func (s *saveModal) close(cmd tea.Cmd) (Modal, tea.Cmd, bool) {
	s.closed, s.data = true, nil
	return s, cmd, true
}

// back returns to the field with a problem; the dialog stays open.
func (s *saveModal) back(problem string) (Modal, tea.Cmd, bool) {
	s.state, s.problem = saveEditing, problem
	s.target, s.linkTo, s.about = "", "", ""
	s.input.CursorEnd()
	return s, s.input.Focus(), false
}

func (s *saveModal) updateAsking(press tea.KeyPressMsg, now time.Time) (Modal, tea.Cmd, bool) {
	action, _, _ := s.km.Lookup(press, keys.ContextModal)
	switch action {
	case keys.ActModalConfirm:
		if now.Sub(s.askedAt) < ConfirmGuard {
			// Typed before the question could be read: not an answer.
			s.note = keys.Label(s.km.Modal.Confirm.Keys()) + " came as the question appeared; press it again to overwrite"
			s.askedAt = time.Time{}
			return s, nil, false
		}
		s.note = ""
		s.attempt++
		s.state = saveWriting
		return s, s.writeCmd("", s.target, s.linkTo, s.data), false
	case keys.ActModalCancel, keys.ActModalEditField:
		s.note = ""
		return s.back("")
	}
	s.note = "answer " + keys.Label(s.km.Modal.Confirm.Keys()) + " to overwrite it or " +
		keys.Label(s.km.Modal.Cancel.Keys()) + " to change the path"
	return s, nil, false
}

// HumanBytes writes a size for people, in SI units: "532 bytes",
// "12.3 kB", "13.2 MB".
func HumanBytes(n int64) string {
	switch {
	case n == 1:
		return "1 byte"
	case n < 1000:
		return fmt.Sprintf("%d bytes", n)
	}
	v := float64(n)
	units := []string{"kB", "MB", "GB", "TB", "PB", "EB"}
	for i, u := range units {
		v /= 1000
		if v < 999.95 || i == len(units)-1 {
			return fmt.Sprintf("%.1f %s", v, u)
		}
	}
	return ""
}
