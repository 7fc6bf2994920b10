//go:build darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd

package flock

import (
	"errors"
	"os"
	"syscall"
)

// Supported: files are locked on this system.
const Supported = true

// TryLock takes an exclusive advisory lock on f without waiting (flock
// LOCK_EX|LOCK_NB). It is held by the open file description, so closing f
// releases it; a second open of the same file, even in this process,
// conflicts with it. It returns ErrLocked when another holds it.
func TryLock(f *os.File) error {
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
		return ErrLocked
	}
	return ferr
}
