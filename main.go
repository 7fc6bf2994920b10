// Command paydash is a terminal dashboard for the support staff of merchants
// that accept payments through the payment acceptance service. Without a
// subcommand it opens the dashboard (on the embedded sandbox when no base URL
// is given); `paydash sandbox` runs the embedded service on its own, for
// tests and other tools. Flags, environment and config file: the config
// package; the session it opens: dashboard.go; the UI: tui.go.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"paydash/config"
)

func main() {
	stopping := []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		stopping = stopping[:2] // paydash serve reads its people file again on SIGHUP
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopping...)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the process around it, so tests can call it.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runWith(ctx, args, stdout, stderr, config.Host())
}

// runWith is run with the machine's environment given, for tests.
func runWith(ctx context.Context, args []string, stdout, stderr io.Writer, sys config.System) int {
	if len(args) > 0 {
		switch args[0] {
		case "sandbox":
			return runSandbox(ctx, args[1:], stdout, stderr)
		case "serve":
			return runServe(ctx, args[1:], stdout, stderr, sys)
		case "version", "--version", "-version":
			return runVersion(args[1:], stdout, stderr)
		case "paths":
			return runPaths(args[1:], stdout, stderr, sys)
		case "completion":
			return runCompletion(args[1:], stdout, stderr)
		case "__complete-merchants":
			return runCompleteMerchants(args[1:], stdout, sys)
		case "help":
			config.Usage(stdout, sys)
			return 0
		}
	}
	return runDashboard(ctx, args, stdout, stderr, sys)
}
