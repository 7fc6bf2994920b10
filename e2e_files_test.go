//go:build unix

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The end-to-end test of the files paydash writes (docs/files.md): the
// built binary in a pseudo-terminal against `paydash sandbox` in another
// process.
//
//   - known-tokens.json, beside the journal, is a symbolic link to someone
//     else's file (one paydash cannot parse, which it used to rename to
//     "….corrupt-…", creating "….lock" beside it). paydash starts, says in
//     its messages (M) that the file is a symbolic link and to what, and
//     leaves the link and that file as they were;
//   - ctrl+s on the Payments tab, to a named pipe and to a device node
//     (/dev/full's numbers), is refused at once with a line saying what
//     the path is, and each is still what it was afterwards.

func TestEndToEndFilesAreNotWrittenThroughLinksPipesOrDevices(t *testing.T) {
	s := newReadOnlySession(t, false)

	// A short folder: the save dialog is 72 columns wide, and the paths
	// it names read whole on the screen.
	dir, err := os.MkdirTemp("", "pde2e")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	dir, err = filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	state := filepath.Join(dir, "state")
	require.NoError(t, os.Mkdir(state, 0o700))
	s.journal = filepath.Join(state, "journal.jsonl")

	elsewhere := filepath.Join(dir, "elsewhere")
	require.NoError(t, os.Mkdir(elsewhere, 0o700))
	theirs := filepath.Join(elsewhere, "theirs.json")
	const theirContent = "someone else's notes, not a known-tokens document\n"
	require.NoError(t, os.WriteFile(theirs, []byte(theirContent), 0o600))
	knownPath := filepath.Join(state, "known-tokens.json")
	require.NoError(t, os.Symlink(theirs, knownPath))

	fifo := filepath.Join(dir, "out.csv")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	device := filepath.Join(dir, "full")
	if err := syscall.Mknod(device, syscall.S_IFCHR|0o600, 1<<8|7); err != nil {
		t.Logf("no device node made here (%v): needs root; the device export is not tried", err)
		device = ""
	}

	tm := s.start(s.merchant)

	// The warning, whole, in the messages view.
	tm.settle()
	tm.send(t, "M")
	tm.waitFor(t, "the known tokens warning in the messages", func(sc string) bool {
		u := squashed(sc)
		return strings.Contains(u, squash("known tokens file "+knownPath)) &&
			strings.Contains(u, squash("is a symbolic link to "+theirs)) &&
			strings.Contains(u, squash("for this run only"))
	})
	tm.send(t, "\x1b") // esc
	tm.waitFor(t, "the messages closed", func(sc string) bool { return !strings.Contains(sc, "is a symbolic link to") })

	// ctrl+s, the path, enter: refused, with what the path is.
	exportTo := func(path, is string) {
		t.Helper()
		tm.settle()
		tm.send(t, "\x13") // ctrl+s
		tm.waitFor(t, "the export dialog", func(sc string) bool { return strings.Contains(sc, "Export the payments shown") })
		tm.send(t, "\x15") // ctrl+u: the default name goes
		tm.send(t, path)
		tm.waitFor(t, "the path typed", func(sc string) bool { return strings.Contains(sc, "> "+path) })
		tm.send(t, "\r")
		tm.waitFor(t, "the refusal", func(sc string) bool {
			return strings.Contains(squash(inBoxes(sc)), squash("✗ "+path+" is "+is+": exports go only to regular files; give a file name"))
		})
		assert.NotContains(t, unwrappedScreen(tm.vt.Screen()), "Overwrite", "nothing is asked")
		tm.send(t, "\x1b") // esc: the dialog closes
		tm.waitFor(t, "the dialog closed", func(sc string) bool { return !strings.Contains(sc, "Export the payments shown") })
	}
	exportTo(fifo, "a named pipe (FIFO)")
	if device != "" {
		exportTo(device, "a character device")
	}

	tm.settle()
	tm.send(t, "q")
	code := tm.wait(t, 10*time.Second)
	assert.Equal(t, 0, code, "paydash exits 0 on q; the last output:\n%s", tm.tailIf(code != 0))

	// Everything is what it was.
	raw, err := os.ReadFile(theirs)
	require.NoError(t, err, "the linked file keeps its name")
	assert.Equal(t, theirContent, string(raw), "and what it holds")
	assert.Equal(t, []string{"theirs.json"}, names(t, elsewhere), "no .corrupt-… or .lock beside it")
	target, err := os.Readlink(knownPath)
	require.NoError(t, err, "known-tokens.json is still a link")
	assert.Equal(t, theirs, target)
	for _, n := range names(t, state) {
		assert.False(t, strings.HasPrefix(n, "known-tokens.json."), "nothing made beside the link: %s", n)
	}
	assert.Equal(t, fs.ModeNamedPipe, lmode(t, fifo), "the pipe is still a pipe")
	if device != "" {
		assert.Equal(t, fs.ModeDevice|fs.ModeCharDevice, lmode(t, device), "the device is still a device")
	}
}

// squash drops every space and line end, and the borders of boxes: text
// a box or the terminal wrapped, even inside a long path, reads whole.
func squash(s string) string {
	return strings.Join(strings.Fields(s), "")
}

func squashed(screen string) string { return squash(unwrappedScreen(screen)) }

// inBoxes is the text between the first and the last vertical border of
// each line of screen: a dialog's lines without the list rows beside it,
// which would otherwise come between the parts of a wrapped message.
func inBoxes(screen string) string {
	var b strings.Builder
	for _, line := range strings.Split(screen, "\n") {
		first, last := strings.Index(line, "│"), strings.LastIndex(line, "│")
		if first >= 0 && last > first {
			b.WriteString(line[first+len("│") : last])
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// lmode is the type of what is at path, not followed.
func lmode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	require.NoError(t, err)
	return fi.Mode().Type()
}

// A wrapped message in a dialog reads whole between its borders, whatever
// the list shows beside the dialog.
func TestInBoxesLeavesOutWhatIsBesideTheDialog(t *testing.T) {
	screen := "  43001969 27 Nov 10:5╭────────────╮8868******1415\n" +
		"  43001953 27 Nov 04:3│ ✗ it is a  │0070******1516\n" +
		"  — end of the period │ named pipe │\n" +
		"                      ╰────────────╯\n"
	assert.Contains(t, squash(inBoxes(screen)), "✗itisanamedpipe")
	assert.NotContains(t, squashed(screen), "✗itisanamedpipe", "the rows beside it come between")
}
