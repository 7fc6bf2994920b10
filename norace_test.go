//go:build !race

package main

// raceEnabled: the test runs without -race (make test does so where there
// is no C compiler, with CGO_ENABLED=0), so the end-to-end test builds the
// binary without it too, in the same environment.
const raceEnabled = false
