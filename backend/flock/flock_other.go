//go:build !(darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd)

package flock

import "os"

// Supported: files are not locked on this system; TryLock always succeeds.
const Supported = false

// TryLock does nothing here: there is no flock.
func TryLock(*os.File) error { return nil }
