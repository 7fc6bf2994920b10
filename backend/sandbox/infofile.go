package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"paydash/backend/safefile"
)

// The info file of `paydash sandbox --info-file PATH` and the CA beside it
// ("<PATH without extension>-ca.pem") are written only over a regular file
// or nothing, each to a temporary file in the same directory and renamed
// into place (mode 600: the info file holds credentials, and the CA, though
// public, is for the same user's tools only). Anything else at either path
// is refused before either file is written:
//   - a directory (no stray "<directory>-ca.pem" is left beside it);
//   - a device such as /dev/full, a pipe or a socket (never replaced by a
//     regular file holding the tokens);
//   - a symbolic link: the rename would replace the link itself, not the
//     file it names, which is rarely what was meant, and following it
//     would let a link planted in a shared directory such as /tmp choose
//     where the tokens go. Give the file's own path.

// InfoFileError is a path WriteInfoFile refuses; a command line reports it
// as a bad flag.
type InfoFileError struct {
	Path    string
	Problem string
}

func (e *InfoFileError) Error() string { return e.Path + ": " + e.Problem }

// InfoFilePaths checks path as WriteInfoFile would, writing nothing, and
// returns the absolute paths of the info file and of its CA file. Errors
// are *InfoFileError.
func InfoFilePaths(path string) (info, ca string, err error) {
	if strings.TrimSpace(path) == "" {
		return "", "", &InfoFileError{Path: path, Problem: "empty path; give the path of the file to write"}
	}
	if strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(filepath.Separator)) {
		return "", "", &InfoFileError{Path: path, Problem: "names a directory; give a file's path, such as " +
			filepath.Join(path, "sandbox.json")}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", &InfoFileError{Path: path, Problem: err.Error()}
	}
	ca = strings.TrimSuffix(abs, filepath.Ext(abs)) + "-ca.pem"
	dir := filepath.Dir(abs)
	switch st, err := os.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
		return "", "", &InfoFileError{Path: path, Problem: "its directory " + dir + " does not exist"}
	case err != nil:
		return "", "", &InfoFileError{Path: path, Problem: "its directory: " + pathErrText(err)}
	case !st.IsDir():
		return "", "", &InfoFileError{Path: path, Problem: dir + " is not a directory"}
	}
	if err := replaceable(abs); err != nil {
		return "", "", &InfoFileError{Path: path, Problem: err.Error()}
	}
	if err := replaceable(ca); err != nil {
		return "", "", &InfoFileError{Path: path, Problem: "its CA file " + ca + ": " + err.Error()}
	}
	return abs, ca, nil
}

// replaceable says why the file at path may not be replaced by a regular
// file: nil when there is none, or a regular one.
func replaceable(path string) error {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return errors.New(pathErrText(err))
	case st.Mode()&fs.ModeSymlink != 0:
		return errors.New("is a symbolic link; give the path of the file itself (it is replaced, not written through)")
	case st.IsDir():
		return fmt.Errorf("is a directory; give a file's path, such as %s", filepath.Join(path, "sandbox.json"))
	case !st.Mode().IsRegular():
		return fmt.Errorf("not a regular file (%s); give the path of a regular file, or of none", safefile.Describe(st.Mode()))
	}
	return nil
}

// pathErrText is err without Go's "op PATH:" prefix.
func pathErrText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
