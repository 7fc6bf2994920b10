package journal

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"paydash/backend/safefile"
)

// A rollover keeps the journal file as an archive beside it and starts a
// new file in its place whose first line is a rollover line (ActionRollover)
// and whose next lines are the lines of the actions still open, copied
// unchanged, so that a start reads the new file alone. It is done so that
// a crash at any point leaves a journal that the next Open reads whole:
//
//  1. the new file is written under tempPath and synced;
//  2. the journal gets its archive's name as a second name (a hard link),
//     which never replaces a file already there; where hard links are not
//     to be had it is renamed to it instead, after checking the name is
//     free (the lock keeps other paydash runs away);
//  3. the new file is renamed over the journal's name, and the directory
//     synced.
//
// A crash before 3 leaves the journal whole under its name (and, after 2,
// under the archive's too, which the next rollover takes up again: the
// same file is never archived twice); recoverRollover removes the
// temporary file. A crash between a rename in 2 and 3 leaves no journal
// but a whole temporary file, which recoverRollover puts in its place.

// archiveLayout is the time in an archive's name: UTC, sortable, without
// the colons some systems refuse in names.
const archiveLayout = "2006-01-02T150405Z"

// tempPath is where a rollover writes the new file before it takes the
// journal's name.
func tempPath(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".rollover")
}

// split cuts a journal's name into its stem and extension:
// "journal.jsonl" into "journal" and ".jsonl".
func split(path string) (dir, stem, ext string) {
	dir, base := filepath.Split(path)
	ext = filepath.Ext(base)
	stem = strings.TrimSuffix(base, ext)
	if stem == "" {
		stem, ext = base, ""
	}
	return dir, stem, ext
}

// ArchiveName is the n-th (from 1) name for an archive of the journal at
// path made at time at: "journal.2026-11-27T104500Z.jsonl" beside
// "journal.jsonl", then "journal.2026-11-27T104500Z_2.jsonl" if that is
// taken.
func ArchiveName(path string, at time.Time, n int) string {
	dir, stem, ext := split(path)
	name := stem + "." + at.UTC().Format(archiveLayout)
	if n > 1 {
		name += "_" + strconv.Itoa(n)
	}
	return filepath.Join(dir, name+ext)
}

// Files are the files of the journal at path, oldest first: its archives
// (by the time in their names), then path itself when it exists. Every one
// reads with Scan.
func Files(path string) ([]string, error) {
	archives, err := archivesOf(path)
	if err != nil {
		return nil, err
	}
	if _, err := os.Lstat(path); err == nil {
		archives = append(archives, path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return archives, nil
}

func archivesOf(path string) ([]string, error) {
	dir, stem, ext := split(path)
	if dir == "" {
		dir = "."
	}
	re := regexp.MustCompile(`^` + regexp.QuoteMeta(stem) + `\.(\d{4}-\d{2}-\d{2}T\d{6}Z)(?:_(\d+))?` + regexp.QuoteMeta(ext) + `$`)
	des, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("journal: %w", err)
	}
	type archive struct {
		stamp string
		n     int
		path  string
	}
	var found []archive
	for _, de := range des {
		m := re.FindStringSubmatch(de.Name())
		if m == nil {
			continue
		}
		n := 1
		if m[2] != "" {
			n, _ = strconv.Atoi(m[2])
		}
		found = append(found, archive{m[1], n, filepath.Join(filepath.Dir(path), de.Name())})
	}
	slices.SortFunc(found, func(a, b archive) int {
		return cmp.Or(strings.Compare(a.stamp, b.stamp), cmp.Compare(a.n, b.n))
	})
	out := make([]string, len(found))
	for i, a := range found {
		out[i] = a.path
	}
	return out, nil
}

// rollover archives the journal at path and puts in its place a new file
// holding a rollover line and raw (the lines of the open actions). It
// returns the archive's path. On failure the journal is left as it was.
func rollover(path string, raw [][]byte, now time.Time) (string, error) {
	archive, already, err := pickArchive(path, now)
	if err != nil {
		return "", fmt.Errorf("journal: rolling %s over: %w", path, err)
	}
	tmp := tempPath(path)
	if err := writeCarried(tmp, filepath.Base(archive), raw, now); err != nil {
		return "", fmt.Errorf("journal: rolling %s over: %w", path, err)
	}
	if err := InstallRollover(path, tmp, archive, already); err != nil {
		return "", fmt.Errorf("journal: rolling %s over: %w", path, err)
	}
	return archive, nil
}

// InstallRollover does steps 2 and 3 of a rollover of the file at path
// (see above), tmp being its new file, whole and synced, and archive the
// name PickArchive gave (already: the file has it). On failure the file
// is left as it was under path and tmp is removed. The approvals file
// (backend/approval) is rolled over by the same steps.
func InstallRollover(path, tmp, archive string, already bool) error {
	moved, linked := false, false
	if !already {
		if err := os.Link(path, archive); err == nil {
			linked = true
		} else if errors.Is(err, fs.ErrExist) {
			_ = os.Remove(tmp)
			return err
		} else {
			// No hard link here (the file system has none): a rename,
			// into a name checked free just now, under the lock.
			if _, lerr := os.Lstat(archive); !errors.Is(lerr, fs.ErrNotExist) {
				_ = os.Remove(tmp)
				return fmt.Errorf("%s is taken", archive)
			}
			if err := os.Rename(path, archive); err != nil {
				_ = os.Remove(tmp)
				return err
			}
			moved = true
		}
	}
	if err := os.Rename(tmp, path); err != nil {
		switch {
		case moved:
			_ = os.Rename(archive, path)
		case linked:
			_ = os.Remove(archive) // a second name of the journal, no more
		}
		_ = os.Remove(tmp)
		return err
	}
	safefile.SyncDir(filepath.Dir(path))
	return nil
}

// TempPath is where a rollover of the file at path writes its new file
// before it takes path's name: ".journal.jsonl.rollover" beside it.
func TempPath(path string) string { return tempPath(path) }

// PickArchive is the name the file at path is archived under by a
// rollover at now (see pickArchive).
func PickArchive(path string, now time.Time) (archive string, already bool, err error) {
	return pickArchive(path, now)
}

// pickArchive is the name the journal at path is archived under: the
// newest archive when it is the journal itself (a rollover that stopped
// after its link: already), else the first free ArchiveName.
func pickArchive(path string, now time.Time) (archive string, already bool, err error) {
	cur, err := os.Lstat(path)
	if err != nil {
		return "", false, err
	}
	archives, err := archivesOf(path)
	if err != nil {
		return "", false, err
	}
	if len(archives) > 0 {
		newest := archives[len(archives)-1]
		if fi, err := os.Lstat(newest); err == nil && os.SameFile(fi, cur) {
			return newest, true, nil
		}
	}
	for n := 1; ; n++ {
		name := ArchiveName(path, now, n)
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			return name, false, nil
		} else if err != nil {
			return "", false, err
		}
	}
}

// writeCarried writes, at tmp, a rollover line naming previous and the
// lines raw, and syncs it. A regular file already at tmp (an earlier
// rollover cut short) is replaced; anything else there is refused.
func writeCarried(tmp, previous string, raw [][]byte, now time.Time) (err error) {
	if err := safefile.Check(tmp); err != nil {
		return err
	}
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := safefile.Create(tmp, 0o600)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	head, err := json.Marshal(Entry{Time: now, Action: ActionRollover, Phase: PhaseCarried, Previous: previous, Carried: len(raw)})
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	_, _ = w.Write(head)
	_ = w.WriteByte('\n')
	for _, line := range raw {
		_, _ = w.Write(line)
		_ = w.WriteByte('\n')
	}
	if err = w.Flush(); err != nil {
		return err
	}
	if err = safefile.Sync(f); err != nil {
		return err
	}
	return f.Close()
}

// recoverRollover finishes what a rollover cut short by a crash left at
// path (see the steps above), and says what it did ("" when nothing was
// left).
func recoverRollover(ctx context.Context, path string, now time.Time) (string, error) {
	tmp := tempPath(path)
	fi, err := os.Lstat(tmp)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	case err != nil:
		return "", err
	case !fi.Mode().IsRegular():
		return "", nil // not paydash's: a rollover refuses it, and leaves it
	}
	if _, err := os.Lstat(path); err == nil {
		// The journal is in place: the rollover stopped before its new
		// file took the journal's name, and the journal holds everything.
		if err := os.Remove(tmp); err != nil {
			return "", err
		}
		return "a rollover of the journal stopped before its end; the journal was left whole, and its unfinished new file " + tmp + " was removed", nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	// The journal was renamed to its archive, and the new file, whole and
	// synced before that, did not yet take its place.
	if whole, err := wholeCarried(ctx, tmp); err != nil {
		return "", err
	} else if whole {
		if err := os.Rename(tmp, path); err != nil {
			return "", err
		}
		safefile.SyncDir(filepath.Dir(path))
		return "a rollover of the journal stopped between its two renames; its new file was put in place", nil
	}
	// Not whole after all (a disk that did not keep what it synced): it
	// is made again from the newest archive.
	if err := os.Remove(tmp); err != nil {
		return "", err
	}
	archives, err := archivesOf(path)
	if err != nil || len(archives) == 0 {
		return "", err
	}
	newest := archives[len(archives)-1]
	st, err := readFile(ctx, newest, 0, false, nil)
	if err != nil {
		return "", err
	}
	if err := writeCarried(tmp, filepath.Base(newest), st.raw, now); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", err
	}
	safefile.SyncDir(filepath.Dir(path))
	return "a rollover of the journal stopped between its two renames; its new file was made again from " + newest, nil
}

// wholeCarried reports whether the file at tmp is a whole one written by
// writeCarried: its rollover line and as many entries as it counts, the
// last one ended.
func wholeCarried(ctx context.Context, tmp string) (bool, error) {
	st, err := readFile(ctx, tmp, 0, false, nil)
	if err != nil {
		return false, err
	}
	return st.carriedOnly() && !st.endsTorn, nil
}
