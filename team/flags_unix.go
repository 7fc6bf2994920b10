//go:build unix

package team

import "syscall"

// nonBlock keeps the open of a named pipe from waiting for a writer.
const nonBlock = syscall.O_NONBLOCK
