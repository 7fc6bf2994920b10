package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"paydash/backend/sandbox"
)

// runSandbox serves the embedded service in the foreground until ctx ends
// (Ctrl-C), with the flags of design §7.
func runSandbox(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("paydash sandbox", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "listen address `HOST:PORT` (loopback only unless --public)")
	public := fs.Bool("public", false, "allow a non-loopback --addr")
	seed := fs.Int64("seed", 1, "seed of the generated data (same seed, same data)")
	payments := fs.Int("payments", sandbox.DefaultPayments, "number of seeded payments, spread over the last 90 days")
	infoFile := fs.String("info-file", "", "write base URL, CA file and credentials as JSON to `PATH` once ready")
	faults := fs.String("faults", "", "inject network faults into API requests: `SPEC` such as latency=200ms,error=0.05,drop=0.01,malformed=0.01 (latency: half before the request is served, half before the answer; drop: half of them after serving, so the answer is lost)")
	settle := fs.Duration("settle-delay", 5*time.Second, "how long new payments and refunds stay Pending")
	arrivals := fs.Duration("arrivals", 3*time.Second, "a new payment arrives every `DURATION` (0 = none)")
	verbose := fs.Bool("v", false, "log every request and state change to stderr")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: paydash sandbox [flags]\n\nRuns the embedded payment service over HTTPS until interrupted.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "paydash sandbox: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *payments < 0 {
		fmt.Fprintln(stderr, "paydash sandbox: --payments must be 0 or more")
		return 2
	}
	f, err := sandbox.ParseFaults(*faults)
	if err != nil {
		fmt.Fprintf(stderr, "paydash sandbox: --faults: %v\n", err)
		return 2
	}
	logger := slog.New(slog.DiscardHandler)
	if *verbose {
		logger = slog.New(slog.NewTextHandler(stderr, nil))
	}

	start := time.Now()
	srv, err := sandbox.Start(ctx, sandbox.Options{
		Addr: *addr, Public: *public, Seed: *seed, Payments: *payments,
		SettleDelay: *settle, Arrivals: *arrivals, Faults: f, Logger: logger,
	})
	if err != nil {
		fmt.Fprintf(stderr, "paydash sandbox: %v\n", err)
		return 1
	}
	defer srv.Close()

	// Without --info-file the CA still has to live somewhere for curl and friends.
	path := *infoFile
	if path == "" {
		dir, err := os.MkdirTemp("", "paydash-sandbox-")
		if err != nil {
			fmt.Fprintf(stderr, "paydash sandbox: %v\n", err)
			return 1
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "info.json")
	}
	if err := srv.WriteInfoFile(path); err != nil {
		fmt.Fprintf(stderr, "paydash sandbox: writing the info file: %v\n", err)
		return 1
	}
	info := srv.Info()
	fmt.Fprintf(stdout, "paydash sandbox: %s payments, merchants %s, ready in %s\n\n",
		thousands(*payments), strings.Join(info.MerchantIDs, " "), time.Since(start).Round(time.Millisecond))
	fmt.Fprintf(stdout, "  base URL        %s\n", info.BaseURL)
	fmt.Fprintf(stdout, "  CA certificate  %s\n", info.CAFile)
	fmt.Fprintf(stdout, "  info file       %s\n", path)
	fmt.Fprintf(stdout, "  v2 token        %s\n", info.V2Token)
	fmt.Fprintf(stdout, "  v2 read-only    %s\n", info.V2ReadOnlyToken)
	for _, u := range info.V1Users {
		fmt.Fprintf(stdout, "  v1 %-12s %s / %s\n", strings.ToLower(u.Role), u.Login, u.Password)
	}
	// The example is cut into short lines so that it fits an 80-column
	// terminal and can be pasted into a shell as it is.
	today := time.Now().UTC()
	fmt.Fprintf(stdout, "\nTry:\n  export CA=%s\n  export TOKEN=%s\n", info.CAFile, info.V2Token)
	fmt.Fprintf(stdout, "  curl --cacert \"$CA\" -H \"Authorization: Bearer $TOKEN\" -G \\\n")
	fmt.Fprintf(stdout, "    %s/api/v2/payments \\\n", info.BaseURL)
	fmt.Fprintf(stdout, "    -d merchantId=%s -d start=%s -d end=%s\n\nPress Ctrl-C to stop.\n",
		first(info.MerchantIDs), today.AddDate(0, 0, -1).Format(time.DateOnly), today.AddDate(0, 0, 1).Format(time.DateOnly))

	<-ctx.Done()
	fmt.Fprintln(stdout, "\nstopping the sandbox")
	return 0
}

// thousands writes 100000 as "100,000".
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func first(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	return ids[0]
}
