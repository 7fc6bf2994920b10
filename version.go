package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
)

// Set at build time by the Makefile (-ldflags -X main.version=... and so
// on); empty in a go install or go build, where the module's build
// information stands in (readVersion).
var (
	version string // git describe: v0.4.0, v0.4.0-3-g1a2b3c4-dirty
	commit  string // short commit hash
	date    string // build time, UTC, RFC 3339
)

// buildVersion is what paydash version prints; an empty field is not known
// and left out.
type buildVersion struct {
	Version, Commit, Date, Go, Platform string
}

// String is the version line: "paydash v0.4.0 (commit 1a2b3c4, built
// 2026-11-27T18:00:00Z) go1.26.8 linux/amd64".
func (b buildVersion) String() string {
	var about []string
	// Without a tag, git describe gives the commit as the version: it is
	// said once.
	if b.Commit != "" && !strings.HasPrefix(b.Version, b.Commit) {
		about = append(about, "commit "+b.Commit)
	}
	if b.Date != "" {
		about = append(about, "built "+b.Date)
	}
	s := "paydash " + b.Version
	if len(about) > 0 {
		s += " (" + strings.Join(about, ", ") + ")"
	}
	return s + " " + b.Go + " " + b.Platform
}

// readVersion is the version from the Makefile's values, each one not set
// taken from the module's build information bi (nil when there is none):
// Main.Version ("(devel)" for a build in a checkout is "dev"), vcs.revision
// shortened, with "-dirty" when vcs.modified, and vcs.time.
func readVersion(ver, rev, built string, bi *debug.BuildInfo) buildVersion {
	b := buildVersion{Version: ver, Commit: rev, Date: built, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi != nil {
		if bi.GoVersion != "" {
			b.Go = bi.GoVersion
		}
		if b.Version == "" && bi.Main.Version != "(devel)" {
			b.Version = bi.Main.Version
		}
		setting := map[string]string{}
		for _, s := range bi.Settings {
			setting[s.Key] = s.Value
		}
		if r := setting["vcs.revision"]; b.Commit == "" && r != "" {
			b.Commit = r[:min(len(r), 7)]
			if setting["vcs.modified"] == "true" {
				b.Commit += "-dirty"
			}
		}
		if b.Date == "" {
			b.Date = setting["vcs.time"]
		}
	}
	if b.Version == "" {
		b.Version = "dev"
	}
	return b
}

// runVersion is paydash version (and --version): one line on stdout.
func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "paydash version: unexpected argument %q\n", args[0])
		return 2
	}
	bi, _ := debug.ReadBuildInfo()
	fmt.Fprintln(stdout, readVersion(version, commit, date, bi))
	return 0
}
