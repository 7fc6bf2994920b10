//go:build !(darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd)

package journal

import (
	"errors"
	"os"
)

// errLocked is never returned here: this system has no flock, so two
// paydash processes are not kept from sharing a journal.
var errLocked = errors.New("locked")

func lock(*os.File) error { return nil }
