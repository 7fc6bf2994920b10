//go:build !(darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd)

package known

import (
	"errors"
	"os"
	"time"
)

// haveFlock: Save cannot lock the file here.
const haveFlock = false

// errLocked is never returned here: this system has no flock, so two
// paydash processes saving at the same instant are not kept apart (each
// write is still atomic).
var errLocked = errors.New("locked")

func lockWaiting(*os.File, time.Duration) error { return nil }

func syncDir(string) {}
