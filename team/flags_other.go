//go:build !unix

package team

// Without O_NONBLOCK the check before the open is the only guard.
const nonBlock = 0
