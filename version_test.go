package main

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The version line names the version, the commit, the build date, the Go
// version and the platform, in that order.
func TestVersionLineShape(t *testing.T) {
	b := buildVersion{Version: "v0.4.0", Commit: "1a2b3c4", Date: "2026-11-27T18:00:00Z", Go: "go1.26.8", Platform: "linux/amd64"}
	assert.Equal(t, "paydash v0.4.0 (commit 1a2b3c4, built 2026-11-27T18:00:00Z) go1.26.8 linux/amd64", b.String())
	// What is not known is left out, never printed empty.
	b.Commit, b.Date = "", ""
	assert.Equal(t, "paydash v0.4.0 go1.26.8 linux/amd64", b.String())
	b.Date = "2026-11-27T18:00:00Z"
	assert.Equal(t, "paydash v0.4.0 (built 2026-11-27T18:00:00Z) go1.26.8 linux/amd64", b.String())
	// An untagged build's version is its commit (git describe): said once.
	b.Version, b.Commit = "1caa15e-dirty", "1caa15e"
	assert.Equal(t, "paydash 1caa15e-dirty (built 2026-11-27T18:00:00Z) go1.26.8 linux/amd64", b.String())
}

// Without the Makefile's values, the module's build information is read:
// a go install of a tagged version, or a build in a dirty checkout.
func TestVersionFallsBackToBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "paydash", Version: "v0.4.0"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"},
			{Key: "vcs.time", Value: "2026-11-27T18:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		}}
	got := readVersion("", "", "", bi)
	assert.Equal(t, "paydash v0.4.0 (commit 1a2b3c4-dirty, built 2026-11-27T18:00:00Z) go1.26.8 "+runtime.GOOS+"/"+runtime.GOARCH, got.String())

	// A local build says (devel): that is "dev", and a clean tree no -dirty.
	bi.Main.Version = "(devel)"
	bi.Settings[2].Value = "false"
	got = readVersion("", "", "", bi)
	assert.Equal(t, "dev", got.Version)
	assert.Equal(t, "1a2b3c4", got.Commit)

	// The Makefile's values win over the build information.
	got = readVersion("v0.5.0-3-gabcdef0", "abcdef0", "2026-11-28T09:00:00Z", bi)
	assert.Equal(t, "paydash v0.5.0-3-gabcdef0 (commit abcdef0, built 2026-11-28T09:00:00Z) go1.26.8 "+runtime.GOOS+"/"+runtime.GOARCH, got.String())

	// No build information at all (a test binary, say): dev, and this Go.
	got = readVersion("", "", "", nil)
	assert.Equal(t, "paydash dev "+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH, got.String())
}

// paydash version and paydash --version print the same line.
func TestVersionCommandAndFlagAgree(t *testing.T) {
	var a, b, errb bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"version"}, &a, &errb))
	require.Equal(t, 0, run(context.Background(), []string{"--version"}, &b, &errb))
	assert.Equal(t, a.String(), b.String())
	assert.Regexp(t, `^paydash \S+ .*go1\.\S+ `+runtime.GOOS+"/"+runtime.GOARCH+"\n$", a.String())
	assert.Equal(t, 2, run(context.Background(), []string{"version", "extra"}, &a, &errb))
	assert.Contains(t, errb.String(), `paydash version: unexpected argument "extra"`)
}

// make build sets the three values paydash version prints.
func TestVersionMakefileSetsCommitAndDate(t *testing.T) {
	makefile, err := os.ReadFile("Makefile")
	require.NoError(t, err)
	for _, v := range []string{"-X main.version=", "-X main.commit=", "-X main.date="} {
		assert.Contains(t, string(makefile), v)
	}
	assert.Contains(t, string(makefile), "date -u +%Y-%m-%dT%H:%M:%SZ")
}
