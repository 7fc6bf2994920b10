package ui

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend/safefile"
	"paydash/backend/textsafe"
)

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

// replaceFile puts data at abs in one step (safefile.WriteAtomic: a
// temporary file in the same folder, synced, renamed over it). Whoever reads abs
// sees the old file or the new one, never a part of either; on failure the
// old one is left. abs must hold a regular file or nothing: what came
// there since the question (a link, a pipe) is refused and left.
func replaceFile(abs string, data []byte) error {
	return safefile.WriteAtomic(abs, data, saveFileMode)
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
