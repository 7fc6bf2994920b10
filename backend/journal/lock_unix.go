//go:build darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd

package journal

import (
	"errors"
	"os"
	"syscall"
)

// errLocked: another open file description holds the lock.
var errLocked = errors.New("locked")

// lock takes an exclusive advisory lock on f without waiting (flock
// LOCK_EX|LOCK_NB). It is held by the open file description, so closing f
// releases it; a second open of the same file, even in this process,
// conflicts with it.
func lock(f *os.File) error {
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
