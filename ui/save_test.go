package ui

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/safefile"
	"paydash/keys"
)

// saveRun drives a save dialog on its own, on a fixed clock.
type saveRun struct {
	t      *testing.T
	m      Modal
	now    time.Time
	closed bool
	out    []tea.Msg // what the commands answered that is not for the dialog (the toast)
}

// dataOf is a SaveSpec.Data that returns data and counts its calls.
func dataOf(data string, calls *atomic.Int32) func(context.Context) ([]byte, error) {
	return func(context.Context) ([]byte, error) {
		calls.Add(1)
		return []byte(data), nil
	}
}

func newSaveRun(t *testing.T, spec SaveSpec) *saveRun {
	return &saveRun{t: t, m: NewSave(spec, keys.Default(), NewTheme(true, true)), now: t0}
}

func (r *saveRun) send(msg tea.Msg) tea.Cmd {
	r.t.Helper()
	require.False(r.t, r.closed, "the dialog is closed")
	m, cmd, closed := r.m.Update(msg, r.now)
	require.NotNil(r.t, m)
	r.m, r.closed = m, closed
	return cmd
}

func (r *saveRun) press(ks ...string) tea.Cmd {
	r.t.Helper()
	var cmd tea.Cmd
	for _, k := range ks {
		cmd = r.send(keyPress(k))
	}
	return cmd
}

// settle runs cmd, gives the dialog its answers and runs what they return,
// until nothing is left; other messages are kept in out.
func (r *saveRun) settle(cmd tea.Cmd) {
	r.t.Helper()
	for cmd != nil {
		var next []tea.Cmd
		for _, msg := range run(cmd) {
			if _, ok := msg.(ModalMsg); ok && !r.closed {
				next = append(next, r.send(msg))
			} else {
				r.out = append(r.out, msg)
			}
		}
		cmd = tea.Batch(next...)
	}
}

func (r *saveRun) view() string { return ansi.Strip(r.m.View(76, 21)) }

func (r *saveRun) toasts() []ToastMsg {
	var out []ToastMsg
	for _, m := range r.out {
		if t, ok := m.(ToastMsg); ok {
			out = append(out, t)
		}
	}
	return out
}

// dirNames lists a folder's entries.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

func TestSaveWritesANewFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "register.xml")
	var calls atomic.Int32
	want := "<register>\x00\xff binary-safe</register>\n"
	r := newSaveRun(t, SaveSpec{Title: "Save register R-1", What: "the XML as received", DefaultPath: path,
		Data: dataOf(want, &calls)})

	assert.Equal(t, keys.ContextModalField, r.m.Context(), "the path field has the focus")
	assert.Contains(t, r.view(), path, "prefilled")

	cmd := r.press("enter")
	require.NotNil(t, cmd)
	assert.False(t, r.closed)
	assert.Equal(t, keys.ContextModal, r.m.Context())
	assert.Contains(t, r.view(), "saving…")
	assert.Zero(t, calls.Load(), "Data runs in the command, not in Update")

	// The data came: the file is being written, and keys wait, esc too.
	msgs := run(cmd)
	require.Len(t, msgs, 1)
	write := r.send(msgs[0])
	require.NotNil(t, write)
	assert.Contains(t, r.view(), "writing the file")
	assert.Nil(t, r.press("esc", "n", "x", "enter"))
	assert.False(t, r.closed, "keys wait while the file is written")
	assert.NoFileExists(t, path, "nothing is written in Update")

	r.settle(write)
	require.True(t, r.closed, "saved: the dialog closes")
	assert.Equal(t, want, readString(t, path))
	assert.Equal(t, int32(1), calls.Load())
	assert.Equal(t, []ToastMsg{{Level: ToastSuccess, Text: "Saved 36 bytes to " + path}}, r.toasts())
	assert.Equal(t, []string{"register.xml"}, dirNames(t, dir))
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(path)
		require.NoError(t, err)
		assert.Zero(t, fi.Mode().Perm()&0o077, "only the user can read it")
	}
}

func TestSaveAsksBeforeOverwriting(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ops.csv")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	var calls atomic.Int32
	r := newSaveRun(t, SaveSpec{Title: "Save operations", DefaultPath: path, Data: dataOf("new,data\n", &calls)})

	r.settle(r.press("enter"))
	require.False(t, r.closed)
	assert.Equal(t, keys.ContextModal, r.m.Context())
	v := unwrapped(r.view())
	assert.Contains(t, v, path+" exists (3 bytes, modified ")
	assert.Contains(t, v, "Overwrite it? y/n")
	assert.Equal(t, "old", readString(t, path), "asking wrote nothing")

	// n goes back to the path, not away.
	assert.Nil(t, r.press("n"))
	assert.False(t, r.closed)
	assert.Equal(t, keys.ContextModalField, r.m.Context())
	assert.NotContains(t, unwrapped(r.view()), "Overwrite it?")
	assert.Equal(t, "old", readString(t, path))

	// Asked again: esc goes back too.
	r.settle(r.press("enter"))
	assert.Contains(t, unwrapped(r.view()), "Overwrite it?")
	r.press("esc")
	assert.False(t, r.closed)
	assert.Equal(t, keys.ContextModalField, r.m.Context())

	// y typed as the question appears does not answer it.
	r.settle(r.press("enter"))
	assert.Nil(t, r.press("y"))
	assert.Equal(t, "old", readString(t, path))
	assert.Contains(t, unwrapped(r.view()), "press it again to overwrite")

	r.settle(r.press("y"))
	require.True(t, r.closed)
	assert.Equal(t, "new,data\n", readString(t, path))
	assert.Equal(t, int32(1), calls.Load(), "the data produced the first time is reused")
	assert.Equal(t, []ToastMsg{{Level: ToastSuccess, Text: "Saved 9 bytes to " + path}}, r.toasts())
	assert.Equal(t, []string{"ops.csv"}, dirNames(t, dir), "no temporary file is left")
}

func TestSaveOverwritesAfterTheGuard(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.txt")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	var calls atomic.Int32
	r := newSaveRun(t, SaveSpec{DefaultPath: path, Data: dataOf("new", &calls)})
	r.settle(r.press("enter"))
	r.now = r.now.Add(ConfirmGuard)
	r.settle(r.press("y"))
	require.True(t, r.closed, "one y once the question could be read")
	assert.Equal(t, "new", readString(t, path))
	assert.Equal(t, []string{"a.txt"}, dirNames(t, dir))
}

func TestSaveProblemsKeepTheDialogOpen(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file.txt")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))

	cases := []struct {
		name, path string
		data       func(context.Context) ([]byte, error)
		problem    string
		produced   bool // Data ran (the path's problem shows only when writing)
	}{
		{name: "a folder", path: filepath.Join(dir, "sub"), problem: "sub is a folder: add a file name"},
		{name: "no such folder", path: filepath.Join(dir, "missing", "x.csv"),
			problem: "the folder " + filepath.Join(dir, "missing") + " does not exist"},
		{name: "under a file", path: filepath.Join(file, "x.csv"), problem: "file.txt is a file, not a folder"},
		{name: "data fails", path: filepath.Join(dir, "x.csv"), produced: true,
			data:    func(context.Context) ([]byte, error) { return nil, errors.New("answer \x1b[31m502") },
			problem: "could not get the data: answer 502"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var calls atomic.Int32
			data := dataOf("data", &calls)
			if c.data != nil {
				data = func(ctx context.Context) ([]byte, error) { calls.Add(1); return c.data(ctx) }
			}
			r := newSaveRun(t, SaveSpec{Title: "Save", DefaultPath: c.path, Data: data})
			r.settle(r.press("enter"))
			require.False(t, r.closed, "the dialog stays open")
			assert.Equal(t, keys.ContextModalField, r.m.Context(), "back to the path")
			v := unwrapped(r.view())
			assert.Contains(t, v, "✗ ")
			assert.Contains(t, v, c.problem)
			assert.Equal(t, c.produced, calls.Load() > 0)
			assert.Empty(t, r.toasts())
			assert.ElementsMatch(t, []string{"file.txt", "sub"}, dirNames(t, dir), "nothing written")
			entries, err := os.ReadDir(filepath.Join(dir, "sub"))
			require.NoError(t, err)
			assert.Empty(t, entries)

			// Typing clears the problem; the path can be fixed and saved.
			r.press("backspace")
			assert.NotContains(t, r.view(), "✗")
		})
	}
}

func TestSaveAfterFixingThePathReusesTheData(t *testing.T) {
	dir := t.TempDir()
	var calls atomic.Int32
	r := newSaveRun(t, SaveSpec{DefaultPath: filepath.Join(dir, "x.cs"), Data: func(ctx context.Context) ([]byte, error) {
		calls.Add(1)
		return []byte("rows"), nil
	}})
	// Made unwritable after the early check: the data is produced, the write fails.
	cmd := r.press("enter")
	msgs := run(cmd)
	require.Len(t, msgs, 1)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "x.cs"), 0o755))
	r.settle(r.send(msgs[0]))
	require.False(t, r.closed)
	assert.Contains(t, unwrapped(r.view()), "x.cs is a folder")

	r.settle(r.press("v", "enter"))
	require.True(t, r.closed)
	assert.Equal(t, "rows", readString(t, filepath.Join(dir, "x.csv")))
	assert.Equal(t, int32(1), calls.Load(), "produced once")
}

func TestSaveNoPermission(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("needs a folder this user cannot write")
	}
	dir := t.TempDir()
	locked := filepath.Join(dir, "locked")
	require.NoError(t, os.Mkdir(locked, 0o500))
	t.Cleanup(func() { _ = os.Chmod(locked, 0o755) })
	var calls atomic.Int32
	r := newSaveRun(t, SaveSpec{DefaultPath: filepath.Join(locked, "x.csv"), Data: dataOf("d", &calls)})
	r.settle(r.press("enter"))
	require.False(t, r.closed)
	assert.Contains(t, unwrapped(r.view()), "✗ no permission to write "+filepath.Join(locked, "x.csv"))
	assert.Empty(t, dirNames(t, locked))
}

func TestSaveRefusesAnEmptyPath(t *testing.T) {
	for _, p := range []string{"", "   "} {
		var calls atomic.Int32
		r := newSaveRun(t, SaveSpec{DefaultPath: p, Data: dataOf("d", &calls)})
		assert.Nil(t, r.press("enter"))
		assert.False(t, r.closed)
		assert.Equal(t, keys.ContextModalField, r.m.Context())
		assert.Contains(t, r.view(), "✗ type a file name or a path to save to")
		assert.Zero(t, calls.Load())
	}
	dir := t.TempDir()
	r := newSaveRun(t, SaveSpec{DefaultPath: dir + "/", Data: dataOf("d", new(atomic.Int32))})
	assert.Nil(t, r.press("enter"))
	assert.Contains(t, r.view(), "✗ the path ends with a folder: add a file name")
	assert.Empty(t, dirNames(t, dir))

	r = newSaveRun(t, SaveSpec{DefaultPath: filepath.Join(dir, "x")})
	assert.Nil(t, r.press("enter"))
	assert.Contains(t, r.view(), "✗ there is nothing to save")
	assert.Equal(t, keys.ContextModalField, r.m.Context())
}

func TestSaveEscCancels(t *testing.T) {
	dir := t.TempDir()
	var calls atomic.Int32
	r := newSaveRun(t, SaveSpec{DefaultPath: filepath.Join(dir, "x.csv"), Data: dataOf("d", &calls)})
	r.press("a", "b")
	assert.Nil(t, r.press("esc"))
	assert.True(t, r.closed)
	assert.Zero(t, calls.Load())
	assert.Empty(t, dirNames(t, dir))

	// esc while the data is produced gives it up: nothing is written,
	// even when its answer comes later.
	started := make(chan struct{})
	r = newSaveRun(t, SaveSpec{DefaultPath: filepath.Join(dir, "y.csv"), Data: func(ctx context.Context) ([]byte, error) {
		close(started)
		<-ctx.Done()
		return []byte("late"), nil
	}})
	cmd := r.press("enter")
	answer := make(chan tea.Msg, 1)
	go func() { answer <- cmd() }()
	<-started
	assert.Contains(t, r.view(), "esc cancels: nothing is written yet")
	assert.Nil(t, r.press("esc"))
	assert.True(t, r.closed)
	late := <-answer // Data saw the cancellation
	m, next, _ := r.m.Update(late, r.now)
	assert.Nil(t, next, "a closed dialog starts no write")
	assert.NotNil(t, m)
	assert.Empty(t, dirNames(t, dir))
}

func TestSaveIgnoresStaleAnswers(t *testing.T) {
	dir := t.TempDir()
	var callsA, callsB atomic.Int32
	a := newSaveRun(t, SaveSpec{DefaultPath: filepath.Join(dir, "a.csv"), Data: dataOf("A", &callsA)})
	b := newSaveRun(t, SaveSpec{DefaultPath: filepath.Join(dir, "b.csv"), Data: dataOf("B", &callsB)})

	bData := run(b.press("enter"))
	require.Len(t, bData, 1)
	bDone := run(b.send(bData[0]))
	require.Len(t, bDone, 1)
	require.True(t, b.send(bDone[0]) != nil && b.closed)

	// In the field, and while producing, a ignores b's answers.
	assert.Nil(t, a.send(bData[0]))
	assert.Nil(t, a.send(bDone[0]))
	assert.Equal(t, keys.ContextModalField, a.m.Context())
	aData := run(a.press("enter"))
	assert.Nil(t, a.send(bData[0]))
	assert.Nil(t, a.send(bDone[0]))
	assert.False(t, a.closed)
	assert.Contains(t, a.view(), "saving… getting the data")

	// While writing too: only its own answer closes it.
	require.Len(t, aData, 1)
	aWrite := a.send(aData[0])
	assert.Nil(t, a.send(bDone[0]))
	assert.False(t, a.closed)
	a.settle(aWrite)
	assert.True(t, a.closed)
	assert.Equal(t, "A", readString(t, filepath.Join(dir, "a.csv")))
	assert.Equal(t, "B", readString(t, filepath.Join(dir, "b.csv")))
}

func TestSaveExpandsHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home) // os.UserHomeDir on Windows
	r := newSaveRun(t, SaveSpec{DefaultPath: "~/reports/out.csv", Data: dataOf("x,y\n", new(atomic.Int32))})
	require.NoError(t, os.Mkdir(filepath.Join(home, "reports"), 0o755))
	r.settle(r.press("enter"))
	require.True(t, r.closed)
	want := filepath.Join(home, "reports", "out.csv")
	assert.Equal(t, "x,y\n", readString(t, want))
	assert.Equal(t, []ToastMsg{{Level: ToastSuccess, Text: "Saved 4 bytes to " + want}}, r.toasts())
}

func TestSaveRelativePathIsInTheWorkingDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	r := newSaveRun(t, SaveSpec{DefaultPath: "register.xml", Data: dataOf("<r/>", new(atomic.Int32))})
	r.settle(r.press("enter"))
	require.True(t, r.closed)
	assert.Equal(t, "<r/>", readString(t, filepath.Join(dir, "register.xml")))
	toasts := r.toasts()
	require.Len(t, toasts, 1)
	abs := strings.TrimPrefix(toasts[0].Text, "Saved 4 bytes to ")
	assert.True(t, filepath.IsAbs(abs), "the toast names the absolute path: %q", abs)
	assert.Equal(t, "register.xml", filepath.Base(abs))
}

func TestSaveEditingAndPasting(t *testing.T) {
	dir := t.TempDir()
	r := newSaveRun(t, SaveSpec{DefaultPath: filepath.Join(dir, "a"), Data: dataOf("d", new(atomic.Int32))})
	r.press("b", "c")
	r.send(tea.PasteMsg{Content: ".\x1b[31mcsv\n"})
	assert.Contains(t, r.view(), filepath.Join(dir, "abc.csv"), "typed at the end, the paste cleaned")
	r.press("tab")
	assert.False(t, r.closed)
	assert.Contains(t, unwrapped(r.view()), "no completion here")
	r.settle(r.press("enter"))
	require.True(t, r.closed)
	assert.Equal(t, "d", readString(t, filepath.Join(dir, "abc.csv")))
}

func TestSaveView(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "register-R-1001-20261101.xml")
	require.NoError(t, os.WriteFile(path, make([]byte, 12345), 0o644))
	r := newSaveRun(t, SaveSpec{
		Title:       "Save register R-1001-20261101\x1b]0;pwned\x07",
		What:        "the XML as received, 13.2 MB\u202e",
		DefaultPath: path,
		Data:        dataOf("<r/>", new(atomic.Int32)),
	})
	check := func() string {
		t.Helper()
		raw := r.m.View(76, 21)
		lines := strings.Split(raw, "\n")
		assert.LessOrEqual(t, len(lines), 21)
		for i, l := range lines {
			assert.LessOrEqual(t, ansi.StringWidth(l), 76, "line %d", i)
		}
		s := ansi.Strip(raw)
		assert.NotContains(t, s, "\x1b")
		assert.NotContains(t, s, "pwned")
		assert.NotContains(t, s, "\u202e")
		return s
	}
	s := check()
	assert.Contains(t, s, "Save register R-1001-20261101")
	assert.Contains(t, s, "Saves the XML as received, 13.2 MB")
	assert.Contains(t, s, "> "+ansi.Strip(r.m.(*saveModal).input.View()))
	assert.Contains(t, s, "register-R-1001-20261101.xml")
	assert.Contains(t, s, "enter save • esc cancel")
	assert.Contains(t, ansi.Strip(r.m.(*saveModal).helpLine(80)), "enter save • esc cancel • ctrl+c quit")

	r.settle(r.press("enter"))
	s = unwrapped(check())
	assert.Contains(t, s, "exists (12.3 kB, modified ")
	assert.Contains(t, s, "Overwrite it? y/n")
	assert.Contains(t, s, "y overwrite • n/esc back to the path")
	assert.Contains(t, ansi.Strip(r.m.(*saveModal).helpLine(80)), "y overwrite • n/esc back to the path")

	// Small boxes still draw, cut.
	for _, w := range []int{20, 40} {
		for _, l := range strings.Split(r.m.View(w, 8), "\n") {
			assert.LessOrEqual(t, ansi.StringWidth(l), w)
		}
	}
}

// Through the shell: the dialog's answers are ModalMsgs, routed to it, and
// its toast shows.
func TestSaveThroughTheShell(t *testing.T) {
	dir := t.TempDir()
	ta := newTestApp(t)
	path := filepath.Join(dir, "ops.csv")
	ta.send(OpenDialogMsg{Modal: NewSave(SaveSpec{Title: "Save operations", DefaultPath: path,
		Data: dataOf("a,b\n", new(atomic.Int32))}, ta.km, ta.theme)})
	require.NotNil(t, ta.modal)
	assert.Contains(t, ta.screen(), "enter save")
	cmd := ta.press("enter")
	for i := 0; i < 5 && cmd != nil; i++ {
		var next []tea.Cmd
		for _, m := range run(cmd) {
			next = append(next, ta.send(m))
		}
		cmd = tea.Batch(next...)
	}
	assert.Nil(t, ta.modal)
	assert.Equal(t, "a,b\n", readString(t, path))
	assert.Contains(t, ta.screen(), "Saved 4 bytes to")
	assert.Empty(t, keysOf(ta.tabs[0]), "no key reached the tab")
}

// What the write's errors say (the permission case is not testable by a
// root user, and a full disk not at all).
func TestSaveProblemWords(t *testing.T) {
	abs := filepath.Join(string(filepath.Separator)+"data", "out.csv")
	dir := filepath.Dir(abs)
	for err, want := range map[error]string{
		&fs.PathError{Op: "open", Path: abs, Err: syscall.EACCES}:           "no permission to write " + abs,
		&fs.PathError{Op: "open", Path: abs, Err: syscall.EPERM}:            "no permission to write " + abs,
		&fs.PathError{Op: "open", Path: abs, Err: syscall.ENOENT}:           "the folder " + dir + " does not exist",
		&fs.PathError{Op: "open", Path: abs, Err: syscall.ENOTDIR}:          "cannot save there: a part of " + dir + " is a file, not a folder",
		&fs.PathError{Op: "open", Path: abs, Err: syscall.EISDIR}:           abs + " is a folder: add a file name",
		&fs.PathError{Op: "write", Path: abs, Err: syscall.ENOSPC}:          "the disk of " + dir + " is full",
		&fs.PathError{Op: "open", Path: abs, Err: syscall.EROFS}:            dir + " is on a read-only file system",
		&os.LinkError{Op: "rename", Old: "a", New: abs, Err: syscall.EXDEV}: "could not write " + abs + ": " + syscall.EXDEV.Error(),
		// What came at the path since it was looked at, from safefile.
		&safefile.NotRegularError{Path: abs, Mode: fs.ModeNamedPipe}:                  abs + " is a named pipe (FIFO): exports go only to regular files; give a file name",
		&safefile.NotRegularError{Path: abs, Mode: fs.ModeDevice | fs.ModeCharDevice}: abs + " is a character device: exports go only to regular files; give a file name",
		&safefile.NotRegularError{Path: abs, Mode: fs.ModeSymlink, Target: "/etc/passwd"}: abs +
			" is now a symbolic link to /etc/passwd; nothing was written: save again to be asked about it",
		&safefile.NotRegularError{Path: abs, Mode: fs.ModeDir}: abs + " is a folder: add a file name",
	} {
		assert.Equal(t, want, saveProblem(abs, err), "%v", err)
	}
}

func TestHumanBytes(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 bytes", 1: "1 byte", 999: "999 bytes", 1000: "1.0 kB", 12345: "12.3 kB",
		999_949: "999.9 kB", 999_950: "1.0 MB", 13_200_000: "13.2 MB", 5_000_000_000: "5.0 GB",
	} {
		assert.Equal(t, want, HumanBytes(n), "%d", n)
	}
}

func TestSafeFileName(t *testing.T) {
	long := strings.Repeat("a", 296) + ".csv"
	require.Len(t, long, 300)
	cases := []struct{ in, want string }{
		{"report.csv", "report.csv"},
		{"../../etc/passwd", "passwd"},
		{`C:\x\report.csv`, "report.csv"},
		{`\\server\share\doc.pdf`, "doc.pdf"},
		{"dir/", "dir"},
		{".bashrc", "bashrc"},
		{"...", "fallback.bin"},
		{"..", "fallback.bin"},
		{"/", "fallback.bin"},
		{"\x1b[31mred.csv", "red.csv"},
		{"\x1b]0;title\x07doc.xml", "doc.xml"},
		{"evil\u202egpj.exe", "evilgpj.exe"},
		{"a\u2028b.txt", "a b.txt"},
		{"tab\there\n.txt", "tab here .txt"},
		{`what?<>|"*:.csv`, "what_______.csv"},
		{"-rf.csv", "rf.csv"},
		{"report.csv. . ", "report.csv"},
		{"CON.txt", "_CON.txt"},
		{"nul", "_nul"},
		{"Акт сверки №5.pdf", "Акт сверки №5.pdf"},
		{"bad\xffutf8.csv", "bad_utf8.csv"},
		{"", "fallback.bin"},
		{"   ", "fallback.bin"},
		{"\x00\x01", "fallback.bin"},
		{long, strings.Repeat("a", 116) + ".csv"},
	}
	for _, c := range cases {
		got := SafeFileName(c.in, "fallback.bin")
		assert.Equal(t, c.want, got, "SafeFileName(%q)", c.in)
		assert.LessOrEqual(t, len(got), 120)
		assert.NotContains(t, got, "/")
		assert.NotContains(t, got, `\`)
	}

	// Cut at a character's edge, the extension kept.
	got := SafeFileName("a"+strings.Repeat("я", 100)+".xml", "x") // 205 bytes
	assert.Equal(t, "a"+strings.Repeat("я", 57)+".xml", got, "119 bytes: one more я would make 121")
	assert.True(t, utf8.ValidString(got))

	// A long "extension" is not one: the name is cut at the end.
	weird := "a." + strings.Repeat("b", 200)
	assert.Len(t, SafeFileName(weird, "x"), 120)

	// The fallback is made safe too; "file" when nothing is left at all.
	assert.Equal(t, "doc.pdf", SafeFileName("", "../doc.pdf"))
	assert.Equal(t, "file", SafeFileName("..", ""))
}
