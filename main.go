// Command paydash is a terminal dashboard for the support staff of merchants
// that accept payments through the payment acceptance service. `paydash
// sandbox` runs the embedded service on its own, for tests and other tools.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// version is set at build time by the Makefile (-ldflags -X main.version=...).
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the process around it, so tests can call it.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "sandbox":
			return runSandbox(ctx, args[1:], stdout, stderr)
		case "version", "--version", "-version":
			fmt.Fprintf(stdout, "paydash %s\n", version)
			return 0
		}
	}
	fs := flag.NewFlagSet("paydash", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { usage(fs.Output()) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "paydash: unknown command %q\n\n", fs.Arg(0))
		usage(stderr)
		return 2
	}
	usage(stdout)
	return 0
}

func usage(w io.Writer) {
	fmt.Fprint(w, `paydash: a terminal dashboard for payment support staff.

Usage:
  paydash sandbox [flags]   run the embedded payment service (both interfaces, seeded data)
  paydash version           print the version
  paydash --help            this help

The dashboard itself is under construction; today paydash serves the sandbox
that it and its tests run against. Run "paydash sandbox --help" for its flags.
`)
}
