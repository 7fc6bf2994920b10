//go:build darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd

package known

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// haveFlock: Save locks the file here.
const haveFlock = true

// errLocked: another open file description holds the lock.
var errLocked = errors.New("locked")

// tryLock takes an exclusive advisory lock on f without waiting (flock
// LOCK_EX|LOCK_NB). It is held by the open file description, so closing f
// releases it; a second open of the same file, even in this process,
// conflicts with it. (As backend/journal's lock.)
func tryLock(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) {
		for {
			ferr = syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB)
			if !errors.Is(ferr, syscall.EINTR) {
				return
			}
		}
	}); err != nil {
		return err
	}
	if errors.Is(ferr, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return ferr
}

// lockWaiting takes the lock, trying again for up to wait while another
// open file description holds it; then it returns errLocked.
func lockWaiting(f *os.File, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		err := tryLock(f)
		if !errors.Is(err, errLocked) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// syncDir syncs a directory, so that a rename in it survives a crash. It
// is best effort: the rename is done either way.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}
