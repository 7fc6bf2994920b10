package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"paydash/backend/safefile"
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

// writeCmd writes data: to a new file at path (never over anything), or,
// when overwrite is set, over that absolute path the user agreed to
// replace; when linkTo is set too, overwrite is a symbolic link and the
// user agreed to replace linkTo, the file it pointed to when asked.
func (s *saveModal) writeCmd(path, overwrite, linkTo string, data []byte) tea.Cmd {
	id, attempt := s.id, s.attempt
	return func() tea.Msg {
		done := saveDoneMsg{id: id, attempt: attempt, size: len(data)}
		if overwrite != "" {
			dest := overwrite
			if linkTo != "" {
				// The link is followed again now: only to the file the
				// question named, which must still be a regular file (or
				// gone: then it is made anew), never where it points now.
				if now, err := filepath.EvalSymlinks(overwrite); err != nil || now != linkTo {
					done.problem = textsafe.Line(overwrite, 300) + " changed since the question (it no longer leads to " +
						textsafe.Line(linkTo, 300) + "); nothing was written: save again to be asked about it"
					return done
				}
				dest, done.via = linkTo, overwrite
			}
			done.abs = dest
			if err := replaceFile(dest, data); err != nil {
				done.problem = saveProblem(dest, err)
			}
			return done
		}
		abs, problem := resolveSavePath(path)
		if problem != "" {
			done.problem = problem
			return done
		}
		done.abs = abs
		err := createFile(abs, data)
		var odd *safefile.NotRegularError
		switch {
		case err == nil:
		case errors.Is(err, fs.ErrExist) || errors.As(err, &odd):
			// Something is there (it may have come since resolveSavePath
			// looked): a regular file or a link to one is asked about,
			// anything else refused.
			switch at := lookAt(abs); {
			case at.problem != "":
				done.problem = at.problem
			case !at.found:
				done.problem = textsafe.Line(abs, 300) + " changed while it was being saved; nothing was written: save again"
			default:
				done.exists, done.linkTo, done.about = true, at.linkTo, at.about
			}
		default:
			done.problem = saveProblem(abs, err)
		}
		return done
	}
}

// resolveSavePath makes path absolute (~/ is the home folder, a relative
// path is in the working directory) and checks what can be checked before
// writing: the folder exists, and the path holds nothing, a regular file
// or a link to one (lookAt). It does I/O: commands only.
func resolveSavePath(path string) (string, string) {
	if path == "~" || strings.HasPrefix(path, "~/") || strings.HasPrefix(path, "~"+string(filepath.Separator)) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", "cannot tell the home folder for ~: " + textsafe.Line(err.Error(), 200)
		}
		path = filepath.Join(home, path[1:])
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "cannot tell where " + textsafe.Line(path, 300) + " is: " + textsafe.Line(err.Error(), 200)
	}
	dir := filepath.Dir(abs)
	switch fi, err := os.Stat(dir); {
	case err != nil:
		return "", saveProblem(abs, err)
	case !fi.IsDir():
		return "", "cannot save there: " + textsafe.Line(dir, 300) + " is a file, not a folder"
	}
	if at := lookAt(abs); at.problem != "" {
		return "", at.problem
	}
	return abs, ""
}

// existing is what a save found at its path.
type existing struct {
	found   bool   // something is there
	linkTo  string // a symbolic link to a regular file: that file (absolute, links resolved)
	about   string // the regular file: "12.3 kB, modified 23 Nov 14:02"
	problem string // the save is refused: what the path is, in words
}

// lookAt says what is at abs: nothing; a regular file, or a symbolic link
// to one, which the user is asked about; or something a save refuses (a
// folder, a named pipe, a device, a socket, a link to one of them or to
// nothing), with a line saying what it is. It does I/O: commands only.
func lookAt(abs string) existing {
	fi, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return existing{}
	case err != nil:
		return existing{found: true, problem: saveProblem(abs, err)}
	}
	here := textsafe.Line(abs, 300)
	switch m := fi.Mode(); {
	case m.IsRegular():
		return existing{found: true, about: describeFile(fi)}
	case m.IsDir():
		return existing{found: true, problem: here + " is a folder: add a file name"}
	case m&fs.ModeSymlink == 0:
		return existing{found: true, problem: here + " is " + safefile.Describe(m) + ": " + onlyRegular}
	}
	// A symbolic link the user typed: followed here only to tell what it
	// leads to; it is written through only once the question naming that
	// file was answered y.
	to, err := filepath.EvalSymlinks(abs)
	if err != nil {
		dest, rerr := os.Readlink(abs)
		switch {
		case rerr != nil:
			return existing{found: true, problem: here + " is a symbolic link that cannot be read: " + textsafe.Line(rerr.Error(), 200)}
		case !filepath.IsAbs(dest):
			dest = filepath.Join(filepath.Dir(abs), dest)
		}
		dest = textsafe.Line(dest, 300)
		if errors.Is(err, fs.ErrNotExist) {
			// Not made through the link: a link left where the user
			// did not expect one must not choose where a file appears.
			return existing{found: true, problem: here + " is a symbolic link to " + dest +
				", where there is no file: exports do not create a file through a link; type that path to create it"}
		}
		return existing{found: true, problem: here + " is a symbolic link to " + dest + " that cannot be followed (" +
			textsafe.Line(linkErr(err), 200) + "): give a file name"}
	}
	tfi, err := os.Lstat(to)
	if err != nil {
		return existing{found: true, problem: saveProblem(to, err)}
	}
	shown := textsafe.Line(to, 300)
	switch m := tfi.Mode(); {
	case m.IsRegular():
		return existing{found: true, linkTo: to, about: "regular file, " + describeFile(tfi)}
	case m.IsDir():
		return existing{found: true, problem: here + " is a symbolic link to the folder " + shown + ": add a file name"}
	default:
		return existing{found: true, problem: here + " is a symbolic link to " + shown + ", " + safefile.Describe(m) + ": " + onlyRegular}
	}
}

// onlyRegular ends the line refusing a path that is not a regular file.
const onlyRegular = "exports go only to regular files; give a file name"

// linkErr is a link's error without Go's "op PATH:" prefix.
func linkErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// createFile writes data to a new file; it fails with fs.ErrExist when
// there is a regular one already (O_EXCL: no window between a check and
// the write), and with a *safefile.NotRegularError when anything else is
// there, a symbolic link included (it is not followed). A file left half
// written by a failed write is removed.
func createFile(abs string, data []byte) error {
	f, err := safefile.Create(abs, saveFileMode)
	if err != nil {
		return err
	}
	if err := finish(f, data); err != nil {
		_ = os.Remove(abs) // ours: it did not exist a moment ago
		return err
	}
	return nil
}

// replaceFile puts data at abs in one step (safefile.Replace: a temporary
// file in the same folder, synced, renamed over it). Whoever reads abs
// sees the old file or the new one, never a part of either; on failure the
// old one is left. abs must hold a regular file or nothing: what came
// there since the question (a link, a pipe) is refused and left.
func replaceFile(abs string, data []byte) error {
	return safefile.Replace(abs, saveFileMode, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// finish writes data, syncs and closes f.
func finish(f *os.File, data []byte) error {
	_, err := f.Write(data)
	if err == nil {
		err = safefile.Sync(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// describeFile is what the overwrite question says of an existing regular
// file.
func describeFile(fi fs.FileInfo) string {
	mod := fi.ModTime()
	layout := "2 Jan 15:04"
	if mod.Year() != time.Now().Year() {
		layout = "2 Jan 2006 15:04"
	}
	return HumanBytes(fi.Size()) + ", modified " + mod.Format(layout)
}

// saveProblem says in words why abs could not be written.
func saveProblem(abs string, err error) string {
	dir := textsafe.Line(filepath.Dir(abs), 300)
	var odd *safefile.NotRegularError
	if errors.As(err, &odd) {
		// What is at abs changed since it was looked at (lookAt says what
		// a path is before anything is written).
		here := textsafe.Line(abs, 300)
		switch {
		case odd.Mode&fs.ModeSymlink != 0:
			what := "a symbolic link"
			if odd.Target != "" {
				what += " to " + textsafe.Line(odd.Target, 300)
			}
			return here + " is now " + what + "; nothing was written: save again to be asked about it"
		case odd.Mode.IsDir():
			return here + " is a folder: add a file name"
		}
		return here + " is " + safefile.Describe(odd.Mode) + ": " + onlyRegular
	}
	switch {
	case errors.Is(err, syscall.ENOTDIR):
		return "cannot save there: a part of " + dir + " is a file, not a folder"
	case errors.Is(err, fs.ErrNotExist):
		return "the folder " + dir + " does not exist"
	case errors.Is(err, syscall.EISDIR):
		return textsafe.Line(abs, 300) + " is a folder: add a file name"
	case errors.Is(err, fs.ErrPermission):
		return "no permission to write " + textsafe.Line(abs, 300)
	case errors.Is(err, syscall.EROFS):
		return dir + " is on a read-only file system"
	case errors.Is(err, syscall.ENOSPC):
		return "the disk of " + dir + " is full"
	case errors.Is(err, syscall.ENAMETOOLONG):
		return "the file name is too long"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	return "could not write " + textsafe.Line(abs, 300) + ": " + textsafe.Line(err.Error(), 200)
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

// --- drawing -----------------------------------------------------------------

func (s *saveModal) helpLine(width int) string {
	quit := [2]string{"ctrl+c", "quit"}
	switch s.state {
	case saveProducing:
		return helpLine(s.th, width, [2]string{keys.Label(s.cancelKeys()), "cancel (nothing is written yet)"}, quit)
	case saveWriting:
		return helpLine(s.th, width, [2]string{"…", "writing the file, keys wait"}, quit)
	case saveAsking:
		yes := "overwrite"
		if s.linkTo != "" {
			yes = "replace its target"
		}
		return helpLine(s.th, width, [2]string{keys.Label(s.km.Modal.Confirm.Keys()), yes},
			[2]string{keys.Label(s.km.Modal.Cancel.Keys()), "back to the path"}, quit)
	}
	return helpLine(s.th, width, [2]string{keys.Label(s.saveKeys()), "save"},
		[2]string{keys.Label(s.cancelKeys()), "cancel"}, quit)
}

func (s *saveModal) View(maxWidth, maxHeight int) string {
	th := s.th
	inner := max(min(maxWidth-boxFrame, 72), 10)

	lines := []string{th.Title.Render(s.title)}
	if s.what != "" {
		lines = append(lines, wrapStyled(th.Text, "Saves "+s.what, inner)...)
	}
	lines = append(lines, "", th.Muted.Render("Save to (a relative path is in the working directory, ~/ is home):"),
		"> "+s.input.View())

	var msgs []string
	switch s.state {
	case saveProducing:
		msgs = wrapStyled(th.Accent, "saving… getting the data", inner)
	case saveWriting:
		msgs = wrapStyled(th.Accent, "saving… writing the file", inner)
	case saveAsking:
		yn := firstKey(s.km.Modal.Confirm.Keys(), "y") + "/" + firstKey(s.km.Modal.Cancel.Keys(), "n")
		q := fmt.Sprintf("%s exists (%s). Overwrite it? %s", textsafe.Line(s.target, 300), s.about, yn)
		if s.linkTo != "" {
			q = fmt.Sprintf("%s is a symbolic link to %s (%s). Replace the file it points to? %s",
				textsafe.Line(s.target, 300), textsafe.Line(s.linkTo, 300), s.about, yn)
		}
		msgs = wrapStyled(th.Warning, q, inner)
	}
	if s.problem != "" {
		msgs = append(msgs, wrapStyled(th.Danger, "✗ "+s.problem, inner)...)
	}
	if s.note != "" {
		msgs = append(msgs, wrapStyled(th.Warning, "! "+s.note, inner)...)
	}
	// Keep the box within the height: the fixed lines, then as many
	// message lines as fit.
	room := maxHeight - 2 - len(lines) - 2 - 1 // border, blank and hint, blank
	if room < len(msgs) {
		msgs = msgs[:max(room, 0)]
	}
	if len(msgs) > 0 {
		lines = append(lines, "")
		lines = append(lines, msgs...)
	}
	lines = append(lines, "", th.Muted.Render(s.hint()))
	for i, l := range lines {
		lines[i] = fitTail(l, inner)
	}
	return box(th, lines)
}

func (s *saveModal) hint() string {
	switch s.state {
	case saveProducing:
		return keys.Label(s.cancelKeys()) + " cancels: nothing is written yet"
	case saveWriting:
		return "writing the file: keys wait until it is done"
	case saveAsking:
		yes := " overwrite • "
		if s.linkTo != "" {
			yes = " replace the file it points to • "
		}
		return keys.Label(s.km.Modal.Confirm.Keys()) + yes + keys.Label(s.km.Modal.Cancel.Keys()) + " back to the path"
	}
	return keys.Label(s.saveKeys()) + " save • " + keys.Label(s.cancelKeys()) +
		" cancel • an existing file is asked about first"
}

// firstKey is the first of ks, for a prompt ("y/n"), or def.
func firstKey(ks []string, def string) string {
	if len(ks) == 0 {
		return def
	}
	return keys.Label(ks[:1])
}

// --- file names from the server ---------------------------------------------

// safeNameMax is the longest name SafeFileName returns, in bytes.
const safeNameMax = 120

// SafeFileName turns a file name that came from a server (a document's
// name) into a base name that is safe to offer as a path: the last part
// of it only (no folders, no "..", whatever the separator: / \ or a
// drive's :), no escape sequences, control, bidi or other invisible
// characters, no character Windows forbids (< > : " | ? * become _), no
// leading dot (which would hide the file) or dash (which a command would
// read as an option), no trailing dot or space, not a Windows device name
// (CON, NUL, COM1…), at most 120 bytes with the extension kept. When
// nothing usable is left it is fallback, made safe the same way ("file"
// if even that is empty).
func SafeFileName(name, fallback string) string {
	if s := safeName(name); s != "" {
		return s
	}
	if s := safeName(fallback); s != "" {
		return s
	}
	return "file"
}

func safeName(name string) string {
	// One line of printable text; runs of spaces become one.
	name = textsafe.Line(name, 0)
	// The last part of a path of any system.
	name = strings.TrimRight(name, `/\ `)
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		switch r {
		case '<', '>', ':', '"', '|', '?', '*', utf8.RuneError:
			return '_'
		}
		return r
	}, name)
	name = strings.TrimLeft(name, ". -")
	name = strings.TrimRight(name, ". ")
	if name == "" {
		return ""
	}
	name = cutName(name, safeNameMax)
	if windowsDevice(name) {
		name = "_" + name
	}
	return name
}

// cutName cuts name to at most n bytes, at a character's edge, keeping its
// extension (a short one: ".csv", ".xml").
func cutName(name string, n int) string {
	if len(name) <= n {
		return name
	}
	ext := filepath.Ext(name)
	if len(ext) > 16 || len(ext) >= len(name) {
		ext = ""
	}
	stem := name[:len(name)-len(ext)]
	limit := n - len(ext)
	for len(stem) > limit {
		_, size := utf8.DecodeLastRuneInString(stem)
		stem = stem[:len(stem)-size]
	}
	stem = strings.TrimRight(stem, ". ")
	if stem == "" {
		return ""
	}
	return stem + ext
}

// windowsDevice: the name (before its first dot) is one Windows reserves.
func windowsDevice(name string) bool {
	stem, _, _ := strings.Cut(name, ".")
	switch strings.ToUpper(strings.TrimSpace(stem)) {
	case "CON", "PRN", "AUX", "NUL",
		"COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
		"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9":
		return true
	}
	return false
}
