//go:build !unix

package safefile

// Without O_NOFOLLOW and O_NONBLOCK the Lstat check before each open is
// the only guard.
const (
	noFollow = 0
	nonBlock = 0
)
