//go:build unix

package ui

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/keys"
)

// The save dialog writes only regular files: a named pipe, a device or a
// folder at the path typed, or a symbolic link to one, is refused at once
// with what it is, never offered for overwrite; a link to a regular file
// is asked about as a link, and only y writes the file it points to.
// These tests drive the dialog as a person does: the default path cleared
// (ctrl+u), the path typed, enter, and y once the question can be read.

// typePath clears the path field and types p, a key press per character.
func (r *saveRun) typePath(p string) {
	r.t.Helper()
	r.press("ctrl+u")
	for _, c := range p {
		r.press(string(c))
	}
	require.Contains(r.t, r.m.(*saveModal).input.Value(), p)
}

// answerYes presses y once the question could be read, and runs the write.
func (r *saveRun) answerYes() {
	r.t.Helper()
	r.now = r.now.Add(ConfirmGuard)
	r.settle(r.press("y"))
}

// shortDir is a new folder with a short path, removed after the test: the
// dialog is 72 columns wide, and a path longer than that is cut inside a
// word, where unwrapped cannot join it back.
func shortDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "pd")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	// The dialog names the files a link leads to with every link
	// resolved: so do the tests, where the temporary folder is behind one.
	dir, err = filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	return dir
}

// modeOf is what Lstat says path is (its type bits).
func modeOf(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	require.NoError(t, err, "%s is still there", path)
	return fi.Mode().Type()
}

// mkdev makes a character device with /dev/full's numbers (1, 7) at path,
// or skips the test: making one needs root.
func mkdev(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mknod(path, syscall.S_IFCHR|0o600, 1<<8|7); err != nil {
		t.Skipf("cannot make a device node here (%v): needs root", err)
	}
}

func TestSaveRefusesPipesDevicesAndFoldersAtOnce(t *testing.T) {
	type hostile struct {
		name    string
		make    func(t *testing.T, dir string) string // makes the thing, returns the path to type
		problem func(dir string) string
	}
	cases := []hostile{
		{"a named pipe", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "out.csv")
			require.NoError(t, syscall.Mkfifo(p, 0o600))
			return p
		}, func(dir string) string {
			return filepath.Join(dir, "out.csv") + " is a named pipe (FIFO): exports go only to regular files; give a file name"
		}},
		{"a character device", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "full")
			mkdev(t, p)
			return p
		}, func(dir string) string {
			return filepath.Join(dir, "full") + " is a character device: exports go only to regular files; give a file name"
		}},
		{"a link to a named pipe", func(t *testing.T, dir string) string {
			require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600))
			p := filepath.Join(dir, "link.csv")
			require.NoError(t, os.Symlink("fifo", p))
			return p
		}, func(dir string) string {
			return filepath.Join(dir, "link.csv") + " is a symbolic link to " + filepath.Join(dir, "fifo") +
				", a named pipe (FIFO): exports go only to regular files; give a file name"
		}},
		{"a link to a device", func(t *testing.T, dir string) string {
			mkdev(t, filepath.Join(dir, "full"))
			p := filepath.Join(dir, "link.csv")
			require.NoError(t, os.Symlink(filepath.Join(dir, "full"), p))
			return p
		}, func(dir string) string {
			return filepath.Join(dir, "link.csv") + " is a symbolic link to " + filepath.Join(dir, "full") +
				", a character device: exports go only to regular files; give a file name"
		}},
		{"a link to a folder", func(t *testing.T, dir string) string {
			require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o700))
			p := filepath.Join(dir, "link.csv")
			require.NoError(t, os.Symlink("sub", p))
			return p
		}, func(dir string) string {
			return filepath.Join(dir, "link.csv") + " is a symbolic link to the folder " + filepath.Join(dir, "sub") + ": add a file name"
		}},
		{"a link to nothing", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "link.csv")
			require.NoError(t, os.Symlink("nowhere.csv", p))
			return p
		}, func(dir string) string {
			return filepath.Join(dir, "link.csv") + " is a symbolic link to " + filepath.Join(dir, "nowhere.csv") +
				", where there is no file: exports do not create a file through a link; type that path to create it"
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := shortDir(t)
			path := c.make(t, dir)
			before := map[string]fs.FileMode{}
			for _, n := range dirNames(t, dir) {
				before[n] = modeOf(t, filepath.Join(dir, n))
			}
			var calls atomic.Int32
			r := newSaveRun(t, SaveSpec{Title: "Export the payments shown", DefaultPath: "payments-2026-11-21.csv",
				Data: dataOf("id,amount\n", &calls)})
			r.typePath(path)
			r.settle(r.press("enter"))

			require.False(t, r.closed, "the dialog stays open")
			assert.Equal(t, keys.ContextModalField, r.m.Context(), "back to the path: nothing is asked")
			v := unwrapped(r.view())
			assert.Contains(t, v, "✗ "+c.problem(dir))
			assert.NotContains(t, v, "Overwrite")
			assert.NotContains(t, v, "Replace")
			assert.Zero(t, calls.Load(), "refused before the data is made")

			// y now is a letter typed into the path, not an answer.
			r.answerYes()
			assert.False(t, r.closed)
			assert.Empty(t, r.toasts())
			after := map[string]fs.FileMode{}
			for _, n := range dirNames(t, dir) {
				after[n] = modeOf(t, filepath.Join(dir, n))
			}
			assert.Equal(t, before, after, "everything is still what it was, and nothing was added")
		})
	}
}

// The device everyone has: /dev/null itself. Only enter is pressed (an
// overwrite of /dev/null, were the test to fail, would break this machine).
func TestSaveRefusesDevNull(t *testing.T) {
	if fi, err := os.Lstat("/dev/null"); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Skip("no /dev/null character device here")
	}
	var calls atomic.Int32
	r := newSaveRun(t, SaveSpec{DefaultPath: "x.csv", Data: dataOf("d", &calls)})
	r.typePath("/dev/null")
	r.settle(r.press("enter"))
	require.False(t, r.closed)
	assert.Equal(t, keys.ContextModalField, r.m.Context())
	assert.Contains(t, unwrapped(r.view()), "✗ /dev/null is a character device: exports go only to regular files; give a file name")
	assert.Equal(t, fs.ModeDevice|fs.ModeCharDevice, modeOf(t, "/dev/null"))
}

// A pipe that appears at the path after the early check (while the data
// is made) is refused by the write itself, and stays a pipe.
func TestSaveRefusesAPipeThatAppearsWhileTheDataIsMade(t *testing.T) {
	dir := shortDir(t)
	path := filepath.Join(dir, "out.csv")
	r := newSaveRun(t, SaveSpec{DefaultPath: "x.csv", Data: dataOf("rows", new(atomic.Int32))})
	r.typePath(path)
	msgs := run(r.press("enter"))
	require.Len(t, msgs, 1, "the data")
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	r.settle(r.send(msgs[0]))
	require.False(t, r.closed)
	assert.Contains(t, unwrapped(r.view()), "✗ "+path+" is a named pipe (FIFO): exports go only to regular files")
	assert.NotContains(t, unwrapped(r.view()), "Overwrite")
	assert.Equal(t, fs.ModeNamedPipe, modeOf(t, path))
}

// The question was about a regular file; a pipe put in its place before y
// is not replaced.
func TestSaveRefusesAPipeThatReplacedTheFileAskedAbout(t *testing.T) {
	dir := shortDir(t)
	path := filepath.Join(dir, "out.csv")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o600))
	r := newSaveRun(t, SaveSpec{DefaultPath: "x.csv", Data: dataOf("new", new(atomic.Int32))})
	r.typePath(path)
	r.settle(r.press("enter"))
	require.Contains(t, unwrapped(r.view()), path+" exists (3 bytes, modified ")
	require.NoError(t, os.Remove(path))
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	r.answerYes()
	require.False(t, r.closed)
	assert.Contains(t, unwrapped(r.view()), "✗ "+path+" is a named pipe (FIFO): exports go only to regular files")
	assert.Equal(t, fs.ModeNamedPipe, modeOf(t, path))
	assert.Equal(t, []string{"out.csv"}, dirNames(t, dir), "no temporary file is left")
}

// A link the user typed: the question says it is a link and to what, and
// y writes the file it points to; the link stays.
func TestSaveThroughALinkAsksThenWritesTheFileItPointsTo(t *testing.T) {
	dir := shortDir(t)
	reports := filepath.Join(dir, "reports")
	require.NoError(t, os.Mkdir(reports, 0o700))
	target := filepath.Join(reports, "report.csv")
	require.NoError(t, os.WriteFile(target, []byte("old,1200\n"), 0o644))
	link := filepath.Join(dir, "latest.csv")
	require.NoError(t, os.Symlink(filepath.Join("reports", "report.csv"), link))

	var calls atomic.Int32
	r := newSaveRun(t, SaveSpec{DefaultPath: "x.csv", Data: dataOf("new,data\n", &calls)})
	r.typePath(link)
	r.settle(r.press("enter"))
	require.False(t, r.closed)
	v := unwrapped(r.view())
	assert.Contains(t, v, link+" is a symbolic link to "+target+" (regular file, 9 bytes, modified ")
	assert.Contains(t, v, "Replace the file it points to? y/n")
	assert.Contains(t, v, "y replace the file it points to • n/esc back to the path")
	assert.NotContains(t, v, "replaces the link")

	// n goes back; nothing is written.
	r.press("n")
	assert.Equal(t, keys.ContextModalField, r.m.Context())
	assert.Equal(t, "old,1200\n", readString(t, target))

	r.settle(r.press("enter"))
	r.answerYes()
	require.True(t, r.closed, unwrapped(r.view()))
	assert.Equal(t, "new,data\n", readString(t, target), "the file the link points to is written")
	got, err := os.Readlink(link)
	require.NoError(t, err, "the link is still a link")
	assert.Equal(t, filepath.Join("reports", "report.csv"), got, "to the same file")
	assert.Equal(t, []ToastMsg{{Level: ToastSuccess, Text: "Saved 9 bytes to " + target + " (through the link " + link + ")"}}, r.toasts())
	assert.Equal(t, []string{"report.csv"}, dirNames(t, reports), "no temporary file is left")
	assert.Equal(t, int32(1), calls.Load())
}

// The link changed between the question and y: nothing is written, the
// dialog says so and goes back to the path.
func TestSaveThroughALinkThatChangedAfterTheQuestion(t *testing.T) {
	for name, repoint := range map[string]func(t *testing.T, dir, link string){
		"to another file": func(t *testing.T, dir, link string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "other.csv"), []byte("other"), 0o600))
			require.NoError(t, os.Remove(link))
			require.NoError(t, os.Symlink("other.csv", link))
		},
		"to a named pipe": func(t *testing.T, dir, link string) {
			require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600))
			require.NoError(t, os.Remove(link))
			require.NoError(t, os.Symlink("fifo", link))
		},
		"the file it names became a pipe": func(t *testing.T, dir, link string) {
			require.NoError(t, os.Remove(filepath.Join(dir, "report.csv")))
			require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "report.csv"), 0o600))
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := shortDir(t)
			target := filepath.Join(dir, "report.csv")
			require.NoError(t, os.WriteFile(target, []byte("old"), 0o600))
			link := filepath.Join(dir, "latest.csv")
			require.NoError(t, os.Symlink("report.csv", link))
			r := newSaveRun(t, SaveSpec{DefaultPath: "x.csv", Data: dataOf("new", new(atomic.Int32))})
			r.typePath(link)
			r.settle(r.press("enter"))
			require.Contains(t, unwrapped(r.view()), "Replace the file it points to?")

			repoint(t, dir, link)
			before := map[string]fs.FileMode{}
			for _, n := range dirNames(t, dir) {
				before[n] = modeOf(t, filepath.Join(dir, n))
			}
			r.answerYes()
			require.False(t, r.closed)
			assert.Equal(t, keys.ContextModalField, r.m.Context())
			assert.Contains(t, unwrapped(r.view()), "✗ ")
			assert.Empty(t, r.toasts())
			after := map[string]fs.FileMode{}
			for _, n := range dirNames(t, dir) {
				after[n] = modeOf(t, filepath.Join(dir, n))
			}
			assert.Equal(t, before, after, "nothing replaced, nothing added")
			if other := filepath.Join(dir, "other.csv"); strings.HasPrefix(name, "to another") {
				assert.Equal(t, "other", readString(t, other), "the file it points to now is not written")
				assert.Equal(t, "old", readString(t, target))
				assert.Contains(t, unwrapped(r.view()), link+" changed since the question")
			}
		})
	}
}

// The question was about a regular file; a link put in its place before y
// is not written through, nor replaced.
func TestSaveRefusesALinkThatReplacedTheFileAskedAbout(t *testing.T) {
	dir := shortDir(t)
	path := filepath.Join(dir, "out.csv")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o600))
	theirs := filepath.Join(dir, "theirs")
	require.NoError(t, os.WriteFile(theirs, []byte("someone else's"), 0o600))
	r := newSaveRun(t, SaveSpec{DefaultPath: "x.csv", Data: dataOf("new", new(atomic.Int32))})
	r.typePath(path)
	r.settle(r.press("enter"))
	require.Contains(t, unwrapped(r.view()), "Overwrite it?")
	require.NoError(t, os.Remove(path))
	require.NoError(t, os.Symlink(theirs, path))
	r.answerYes()
	require.False(t, r.closed)
	assert.Contains(t, unwrapped(r.view()), "✗ "+path+" is now a symbolic link to "+theirs+"; nothing was written: save again to be asked about it")
	assert.Equal(t, "someone else's", readString(t, theirs))
	got, err := os.Readlink(path)
	require.NoError(t, err)
	assert.Equal(t, theirs, got)
	assert.ElementsMatch(t, []string{"out.csv", "theirs"}, dirNames(t, dir))
}

// A full disk (a 16 kB tmpfs, so root only): overwriting a file with more
// than the disk holds fails, says so, and leaves the old file whole; with
// room again, the next y writes it.
func TestSaveOnAFullDiskLeavesTheOldFile(t *testing.T) {
	dir := shortDir(t)
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs here (%v: %s): needs root", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	path := filepath.Join(dir, "ops.csv")
	require.NoError(t, os.WriteFile(path, []byte("old,rows\n"), 0o600))
	big := strings.Repeat("0123456789abcdef\n", 2000) // 34 kB
	r := newSaveRun(t, SaveSpec{DefaultPath: "x.csv", Data: dataOf(big, new(atomic.Int32))})
	r.typePath(path)
	r.settle(r.press("enter"))
	r.answerYes()
	require.False(t, r.closed)
	assert.Contains(t, unwrapped(r.view()), "✗ the disk of "+dir+" is full")
	assert.Equal(t, "old,rows\n", readString(t, path), "the old file is whole")
	assert.Equal(t, []string{"ops.csv"}, dirNames(t, dir), "no temporary file is left")

	// A new file that does not fit is not left half written either.
	r.typePath(filepath.Join(dir, "new.csv"))
	r.settle(r.press("enter"))
	assert.Contains(t, unwrapped(r.view()), "✗ the disk of "+dir+" is full")
	assert.Equal(t, []string{"ops.csv"}, dirNames(t, dir))

	if out, err := exec.Command("mount", "-o", "remount,size=1m", dir).CombinedOutput(); err != nil {
		t.Fatalf("remount: %v: %s", err, out)
	}
	r.typePath(path)
	r.settle(r.press("enter"))
	r.answerYes()
	require.True(t, r.closed, unwrapped(r.view()))
	assert.Equal(t, big, readString(t, path))
	assert.Equal(t, []string{"ops.csv"}, dirNames(t, dir))
}
