// Package flock locks a file against other processes (and other opens in
// this one): the journal for the whole run, the known-tokens file while it
// is saved. Where the system has no flock, locking does nothing and
// Supported is false.
package flock

import (
	"errors"
	"os"
	"time"
)

// ErrLocked: another open file description holds the lock.
var ErrLocked = errors.New("locked")

// Wait takes the lock, trying again for up to wait while another holds
// it; then it returns ErrLocked.
func Wait(f *os.File, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		err := TryLock(f)
		if !errors.Is(err, ErrLocked) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
}
