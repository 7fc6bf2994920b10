package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"paydash/config"
)

const pathsUsage = `Usage: paydash paths [dashboard flags]

Lists every file paydash reads or writes, as the dashboard would find them on
this machine with these flags (--config, --journal, --log): name, path, and
whether it exists yet.
`

// runPaths is paydash paths: the files of config.Files, one a line, with
// whether each exists. A config file that cannot be read still lists them,
// then says why (exit 2).
func runPaths(args []string, stdout, stderr io.Writer, sys config.System) int {
	files, err := config.Files(args, sys)
	if errors.Is(err, config.ErrHelp) {
		io.WriteString(stdout, pathsUsage)
		return 0
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, f := range files {
		where, state := f.Note, ""
		if f.Path != "" {
			where, state = f.Path, "("+existence(f.Path)+")"
			if f.Note != "" {
				state = "(" + existence(f.Path) + "; " + f.Note + ")"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", f.Name, where, state)
	}
	_ = tw.Flush()
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		io.WriteString(stdout, strings.TrimRight(line, " \n")+strings.Repeat("\n", strings.Count(line, "\n")))
	}
	if err != nil {
		fmt.Fprintf(stderr, "paydash paths: %v\n", err)
		return 2
	}
	return 0
}

// existence says whether path is there: "exists", "not yet", or why it
// cannot be told.
func existence(path string) string {
	_, err := os.Lstat(path)
	switch {
	case err == nil:
		return "exists"
	case errors.Is(err, os.ErrNotExist):
		return "not yet"
	}
	return config.DescribeFileErr(err)
}
