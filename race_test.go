//go:build race

package main

// raceEnabled: the test runs with -race, so the end-to-end test builds the
// binary with it too (and finds every package in the build cache).
const raceEnabled = true
