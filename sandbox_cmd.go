package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"paydash/backend/money"
	"paydash/backend/sandbox"
	"paydash/backend/textsafe"
	"paydash/config"
)

// The ranges of the sandbox's numeric flags: out of them a flag is refused
// (exit 2) with its range, before anything is started.
//   - --payments: the seed takes about 630 bytes and 2 µs a payment (1,000,000:
//     630 MB, 2 s), so 5,000,000 (about 3 GB, 10 s) is as many as a
//     developer's machine should be asked for;
//   - --arrivals: a new payment every 100 ms at most (about 25 MB an hour);
//     1ns grew the process by 150 MB a second;
//   - --settle-delay: 0 would mean the default 5 s (Options), so from 1 ms;
//   - --seed: 0 would mean seed 1 (Options), so from 1;
//   - --faults latency: at most 5 minutes.
const (
	maxSeedPayments = 5_000_000
	minArrivals     = 100 * time.Millisecond
	maxArrivals     = 24 * time.Hour
	minSettleDelay  = time.Millisecond
	maxSettleDelay  = 24 * time.Hour
	maxFaultLatency = 5 * time.Minute
)

// runSandbox serves the embedded service in the foreground until ctx ends
// (Ctrl-C, SIGTERM), with the flags README.md lists. A signal while it seeds
// stops it at once (exit 1: it never became ready).
func runSandbox(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	flags, code, ok := parseSandboxFlags(args, stdout, stderr)
	if !ok {
		return code
	}
	fail := func(format string, a ...any) int {
		msg := strings.TrimPrefix(fmt.Sprintf(format, a...), "sandbox: ")
		fmt.Fprintf(stderr, "paydash sandbox: %s\n", msg)
		return 1
	}
	start := time.Now()
	srv, err := startSandbox(ctx, flags.opts)
	if err != nil {
		if ctx.Err() != nil {
			err = errInterrupted
		}
		return fail("%v", err)
	}
	defer srv.Close()

	path, removeTemp, err := sandboxInfoPath(flags.infoFile)
	if err != nil {
		return fail("%v", err)
	}
	defer removeTemp()
	if ctx.Err() != nil {
		return fail("%v", errInterrupted)
	}
	if err := srv.WriteInfoFile(path); err != nil {
		return fail("writing the info file: %v", err)
	}
	printSandboxReady(stdout, srv.Info(), path, flags.opts.Payments, time.Since(start))

	<-ctx.Done()
	fmt.Fprintln(stdout, "\nstopping the sandbox")
	return 0
}

// sandboxFlags are `paydash sandbox`'s flags, read and checked.
type sandboxFlags struct {
	opts     sandbox.Options // the sandbox's settings, its logger included
	infoFile string          // "" for none asked
}

// parseSandboxFlags reads the flags. When it returns !ok, the command ends
// with code: 0 after --help (printed to stdout, as paydash --help is), 2
// for bad input (said on stderr in one line, "paydash sandbox: ...").
func parseSandboxFlags(args []string, stdout, stderr io.Writer) (_ sandboxFlags, code int, ok bool) {
	fs, v := newSandboxFlagSet()
	bad := func(format string, a ...any) (sandboxFlags, int, bool) {
		fmt.Fprintf(stderr, "paydash sandbox: "+format+"\n", a...)
		return sandboxFlags{}, 2, false
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printSandboxHelp(fs, stdout)
			return sandboxFlags{}, 0, false
		}
		return bad("%s (run paydash sandbox --help for the flags)", config.FlagError(err))
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument %q (run paydash sandbox --help)", fs.Arg(0))
	}
	f, err := sandbox.ParseFaults(*v.faults)
	if err != nil {
		return bad("--faults: %v", err)
	}
	if f.Latency > maxFaultLatency {
		return bad("--faults: latency %s is out of range; give a duration from 0 to %s", f.Latency, config.ShortDuration(maxFaultLatency))
	}
	// The info file's path is checked before the seed, so that a bad one
	// is refused at once and nothing is written beside it.
	if *v.infoFile != "" {
		if _, _, err := sandbox.InfoFilePaths(*v.infoFile); err != nil {
			return bad("--info-file %v", err)
		}
	}
	logger := slog.New(slog.DiscardHandler)
	if *v.verbose {
		logger = slog.New(slog.NewTextHandler(stderr, nil))
	}
	opts := sandbox.Options{
		Addr: *v.addr, Public: *v.public, Seed: *v.seed, Payments: int(*v.payments),
		SettleDelay: *v.settle, Arrivals: *v.arrivals, Faults: f, Logger: logger,
	}
	// The address and fault rates too are bad input, refused before the seed.
	if err := opts.Check(); err != nil {
		return bad("%s", strings.TrimPrefix(err.Error(), "sandbox: "))
	}
	return sandboxFlags{infoFile: *v.infoFile, opts: opts}, 0, true
}

// sandboxFlagValues are where newSandboxFlagSet's flags land.
type sandboxFlagValues struct {
	addr, infoFile, faults *string
	public, verbose        *bool
	seed, payments         *int64
	settle, arrivals       *time.Duration
}

// newSandboxFlagSet defines paydash sandbox's flags (the completion
// scripts read their names from it too).
func newSandboxFlagSet() (*flag.FlagSet, sandboxFlagValues) {
	fs := flag.NewFlagSet("paydash sandbox", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported in one line
	fs.Usage = func() {}     // and the help only when asked for
	var v sandboxFlagValues
	addr := fs.String("addr", "127.0.0.1:0", "listen address `HOST:PORT` (loopback only unless --public)")
	public := fs.Bool("public", false, "allow a non-loopback --addr")
	seed := int64Flag(fs, "seed", 1, 1, math.MaxInt64, "seed of the generated data (same seed, same data): `N` from 1")
	payments := int64Flag(fs, "payments", sandbox.DefaultPayments, 0, maxSeedPayments,
		"number of seeded payments, spread over the last 90 days: `N` from 0 to "+money.Count(maxSeedPayments))
	infoFile := fs.String("info-file", "", "write base URL, CA file and credentials as JSON to `PATH` once ready (mode 600, the CA beside it in PATH-ca.pem; only a regular file or none is replaced)")
	faults := fs.String("faults", "", "inject network faults into API requests: `SPEC` such as latency=200ms,error=0.05,drop=0.01,malformed=0.01 (latency: up to "+config.ShortDuration(maxFaultLatency)+", half before the request is served, half before the answer; drop: half of them after serving, so the answer is lost)")
	settle := durationFlag(fs, "settle-delay", 5*time.Second, minSettleDelay, maxSettleDelay, false,
		"how long new payments and refunds stay Pending: `DURATION` from "+config.ShortDuration(minSettleDelay)+" to "+config.ShortDuration(maxSettleDelay))
	arrivals := durationFlag(fs, "arrivals", 3*time.Second, minArrivals, maxArrivals, true,
		"a new payment arrives every `DURATION`: 0 (none) or from "+config.ShortDuration(minArrivals)+" to "+config.ShortDuration(maxArrivals))
	verbose := fs.Bool("v", false, "log every request and state change to stderr")
	v.addr, v.public, v.seed, v.payments, v.infoFile, v.faults = addr, public, seed, payments, infoFile, faults
	v.settle, v.arrivals, v.verbose = settle, arrivals, verbose
	return fs, v
}

// printSandboxHelp is paydash sandbox --help, on stdout like paydash
// --help: the flags written as the README writes them (--addr), each
// description wrapped within 80 columns under its flag.
func printSandboxHelp(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprint(w, "Usage: paydash sandbox [flags]\n\nRuns the embedded payment service over HTTPS until interrupted.\n\nFlags:\n")
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		name := "--" + f.Name
		if len(f.Name) == 1 {
			name = "-" + f.Name
		}
		if _, isBool := f.Value.(interface{ IsBoolFlag() bool }); !isBool && arg != "" {
			name += " " + arg
		}
		if d := f.DefValue; d != "" && d != "false" && d != "0" {
			usage += " (default " + d + ")"
		}
		fmt.Fprintf(w, "  %s\n%s", name, wrapText(usage, "        ", 80))
	})
	fmt.Fprint(w, sandboxControlHelp)
}

// wrapText is text in lines of at most width columns, each starting with
// indent (a word longer than a line has one to itself).
func wrapText(text, indent string, width int) string {
	var b strings.Builder
	line := indent
	for _, word := range strings.Fields(text) {
		if len(line) > len(indent) && len([]rune(line))+1+len([]rune(word)) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += word
	}
	return b.String() + line + "\n"
}

// sandboxInfoPath is where the info file goes: the one asked for, or,
// without --info-file, one in a folder of its own that remove deletes (the
// CA still has to live somewhere for curl and friends).
func sandboxInfoPath(asked string) (path string, remove func(), err error) {
	if asked != "" {
		return asked, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "paydash-sandbox-")
	if err != nil {
		return "", nil, err
	}
	return filepath.Join(dir, "info.json"), func() { _ = os.RemoveAll(dir) }, nil
}

// printSandboxReady says the sandbox is up: what it holds, where, the
// credentials, and a request to try.
func printSandboxReady(stdout io.Writer, info sandbox.Info, path string, payments int, took time.Duration) {
	fmt.Fprintf(stdout, "paydash sandbox: %s payments, merchants %s, ready in %s\n\n",
		money.Count(payments), strings.Join(info.MerchantIDs, " "), took.Round(time.Millisecond))
	fmt.Fprintf(stdout, "  base URL        %s\n", info.BaseURL)
	fmt.Fprintf(stdout, "  CA certificate  %s\n", info.CAFile)
	fmt.Fprintf(stdout, "  info file       %s\n", path)
	for i, m := range info.Merchants {
		label := "  merchants       "
		if i > 0 {
			label = "                  "
		}
		fmt.Fprintf(stdout, "%s%s %s\n", label, m.ID, textsafe.Line(m.Name, 50))
	}
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
}

// int64Flag defines a whole-number flag that refuses, with the range, a
// value outside lo..hi.
func int64Flag(fs *flag.FlagSet, name string, value, lo, hi int64, usage string) *int64 {
	f := &rangeFlag{n: value, lo: lo, hi: hi}
	fs.Var(f, name, usage)
	return &f.n
}

// durationFlag defines a duration flag that refuses, with the range, a
// value outside lo..hi (but 0 when zeroOK).
func durationFlag(fs *flag.FlagSet, name string, value, lo, hi time.Duration, zeroOK bool, usage string) *time.Duration {
	f := &rangeFlag{n: int64(value), lo: int64(lo), hi: int64(hi), duration: true, zeroOK: zeroOK}
	fs.Var(f, name, usage)
	return (*time.Duration)(&f.n)
}

// rangeFlag is a number or duration flag with its range. The zero value
// is usable (flag.PrintDefaults makes one).
type rangeFlag struct {
	n, lo, hi int64
	duration  bool
	zeroOK    bool
}

func (f *rangeFlag) String() string {
	if f == nil {
		return ""
	}
	if f.duration {
		return config.ShortDuration(time.Duration(f.n))
	}
	return strconv.FormatInt(f.n, 10)
}

func (f *rangeFlag) Set(s string) error {
	var n int64
	var err error
	if f.duration {
		var d time.Duration
		d, err = time.ParseDuration(strings.TrimSpace(s))
		n = int64(d)
	} else {
		n, err = strconv.ParseInt(strings.ReplaceAll(strings.TrimSpace(s), "_", ""), 10, 64)
	}
	switch {
	case errors.Is(err, strconv.ErrRange):
		return errors.New("out of range; " + f.want())
	case err != nil && f.duration:
		return errors.New("not a duration; " + f.want())
	case err != nil:
		return errors.New("not a whole number; " + f.want())
	case n < f.lo && !(f.zeroOK && n == 0) || n > f.hi:
		return errors.New("out of range; " + f.want())
	}
	f.n = n
	return nil
}

// want says what the flag takes: "give a whole number from 0 to 5,000,000".
func (f *rangeFlag) want() string {
	if !f.duration {
		hi := strconv.FormatInt(f.hi, 10)
		if f.hi < 1e9 {
			hi = money.Count(int(f.hi))
		}
		return fmt.Sprintf("give a whole number from %d to %s", f.lo, hi)
	}
	lo, hi := config.ShortDuration(time.Duration(f.lo)), config.ShortDuration(time.Duration(f.hi))
	if f.zeroOK {
		return fmt.Sprintf("give 0 (none) or a duration from %s to %s, such as 3s", lo, hi)
	}
	return fmt.Sprintf("give a duration from %s to %s, such as 5s", lo, hi)
}

func first(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	return ids[0]
}

// sandboxControlHelp is the --help text of the testers' endpoints
// (backend/sandbox/control.go).
const sandboxControlHelp = `
Control of time and state (sandbox only, with the full v2 token; -d is the
JSON body):
  POST /_sandbox/clock/advance -d '{"duration":"1h"}'
        move the clock on (a Go duration or seconds, up to 366 days);
        everything due happens now; answers {"now":...,"events":N}
  POST /_sandbox/reset
        back to the seed, the clock to real time; forgets idempotency
        keys, v1 nonces and callbacks under way; answers {"reset":true,...}
  POST /_sandbox/callbacks/{payment or token id}/resend
        sends its last callback again; 202 {"deliveryId":...}, 404 if none
  POST /_sandbox/scenario -d '{"kind":"decline_spike","rate":0.6,
                              "resultCode":"IssuerUnavailable",
                              "duration":"30m"}'
        something goes wrong from now on, for duration (up to 7 days), to
        a share rate (0 to 1, default 1) of what is made meanwhile:
        decline_spike       new payments Rejected with resultCode
                            (default TransactionDeclined)
        confirmation_stall  new payments awaiting 3-D Secure, SMS or SBP
                            confirmation never complete
        refund_delay        new refunds stay Pending until the end
        answers {"scenario":{...}}; reset clears them
  GET  /_sandbox/scenario
        the scenarios not yet over: {"scenarios":[...]}
  e.g. curl --cacert "$CA" -H "Authorization: Bearer $TOKEN" -X POST \
         "$BASE/_sandbox/clock/advance" -d '{"duration":"1h"}'
`
