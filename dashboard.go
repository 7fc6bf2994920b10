package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"paydash/debuglog"
	"slices"
	"time"

	"github.com/charmbracelet/x/term"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/journal"
	"paydash/backend/known"
	"paydash/backend/money"
	"paydash/backend/safefile"
	"paydash/backend/sandbox"
	"paydash/config"
	"paydash/keys"
	"paydash/ui"
)

// session is everything the dashboard runs with, opened from the settings:
// the backend (live, or the embedded sandbox), the journal, the request log.
type session struct {
	backend   backend.Backend
	journal   *journal.Journal
	keys      keys.Map
	scope     ui.Scope      // the first merchant and period shown
	merchants []ui.Merchant // what the switcher offers, with their names
	refresh   time.Duration
	// pending are the journal's actions without an outcome (an earlier
	// run stopped while they were sent): the dashboard finds them out.
	pending   []action.Request
	typedOver map[string]money.Decimal
	// known is the tokens paydash knows (the Tokens tab), in a file
	// beside the journal.
	known     *known.Store
	warnings  []string    // for the dashboard to show once it is up
	notices   []ui.Notice // news the dashboard shows in a notice once it is up
	noColor   bool
	dark      bool              // the background assumed until the terminal says (COLORFGBG)
	noMouse   bool              // the mouse starts off (config mouse = false)
	theme     string            // the theme chosen (config theme)
	colors    map[string]string // and its [colors]
	sandbox   *sandbox.Server   // nil on a live service
	logger    *slog.Logger      // never nil (discards without --log)
	logFile   *os.File
	logPath   string           // the request log being written, "" when none
	debug     *debuglog.Logger // the debug log (--debug-log), nil when none
	debugFile *os.File
	debugLost string // why the debug log stopped writing, said at exit

	// serviceNow is the service's clock (backend.Backend.ServiceNow): the
	// time its answers tell, for the periods "today", "7 days", "30 days".
	serviceNow func() time.Time
}

// sandboxStopWait bounds how long quitting waits for the embedded sandbox
// to finish requests still running (a page the user no longer wants): the
// process is about to end, and the sandbox with it.
const sandboxStopWait = 300 * time.Millisecond

// Close stops the sandbox, then closes the journal (so that an answer the
// sandbox still gives can be journaled) and the log.
func (s *session) Close() error {
	var errs []error
	if srv := s.sandbox; srv != nil {
		s.sandbox = nil
		stopped := make(chan error, 1)
		go func() { stopped <- srv.Close() }()
		select {
		case err := <-stopped:
			errs = append(errs, err)
		case <-time.After(sandboxStopWait):
		}
	}
	if s.journal != nil {
		errs = append(errs, s.journal.Close())
		s.journal = nil
	}
	if s.logFile != nil {
		errs = append(errs, s.logFile.Close())
		s.logFile = nil
	}
	if s.debugFile != nil {
		// The debug log is for a bug report: its failure is said, but it
		// does not make a quit that went well a failure.
		if err := s.debug.Close(); err != nil {
			s.debugLost = fmt.Sprintf("the debug log %s stopped at a write error (%v): the lines after it are lost",
				s.debugFile.Name(), err)
		}
		errs = append(errs, s.debugFile.Close())
		s.debug, s.debugFile = nil, nil
	}
	return errors.Join(errs...)
}

// sandboxOptions are the embedded sandbox's settings for `paydash` without a
// base URL: the default data, new payments arriving every 3 s.
var sandboxOptions = sandbox.Options{Seed: 1, Payments: sandbox.DefaultPayments, Arrivals: 3 * time.Second}

// openSession starts what the settings ask for. An error is a
// *config.UsageError (exit 2) when the input is at fault, anything else
// exits 1. On error everything opened so far is closed.
func openSession(ctx context.Context, s config.Settings, now time.Time) (_ *session, err error) {
	sess := &session{keys: s.Keys, refresh: s.Refresh, noColor: s.NoColor, dark: s.Dark, noMouse: s.NoMouse, theme: s.Theme, colors: s.Colors, typedOver: s.TypedOver,
		logger: slog.New(slog.DiscardHandler)}
	defer func() {
		if err != nil {
			_ = sess.Close()
		}
	}()

	if err := sess.openRequestLog(s); err != nil {
		return nil, err
	}
	if err := sess.openDebugLog(s); err != nil {
		return nil, err
	}
	cfg := backend.Config{
		BaseURL: s.BaseURL, RootCAs: s.RootCAs,
		V2Token: s.V2Token, V1Login: s.V1Login, V1Password: s.V1Password,
		MerchantIDs: s.Merchants, ReadOnly: s.ReadOnly, ParallelReads: s.ParallelReads,
	}
	if s.LogPath != "" {
		cfg.Logger = sess.logger
	}
	cfg.Debug = sess.debug
	names := s.MerchantNames
	if s.BaseURL == "" {
		if names, err = sess.startEmbeddedSandbox(ctx, s, &cfg); err != nil {
			return nil, err
		}
	}
	if len(cfg.MerchantIDs) == 0 {
		return nil, config.Usagef("no merchant known: give --merchant ID, or merchants in %s", s.ConfigName)
	}
	for _, id := range cfg.MerchantIDs {
		sess.merchants = append(sess.merchants, ui.Merchant{ID: id, Name: names[id]})
	}
	sess.warnings = append(sess.warnings, s.ShownWarnings...)

	b, err := backend.Open(cfg)
	if err != nil {
		// Open's messages never hold a secret; they say what to set.
		return nil, config.Usagef("%v", err)
	}
	sess.backend = b
	sess.serviceNow = b.ServiceNow

	jpath, err := s.Journal(cfg.Sandbox)
	if err != nil {
		return nil, err
	}
	if err := openJournal(ctx, jpath, cfg, sess, journalProgress()); err != nil {
		return nil, err
	}
	sess.known = openKnown(config.KnownTokensPath(jpath), sess)

	merchant := s.Merchant
	if merchant == "" {
		merchant = cfg.MerchantIDs[0]
	}
	// The first view: today's payments. It rolls with the service's clock
	// from the first answer on (ui.Scope.At).
	sess.scope = ui.PresetScope(merchant, ui.PresetToday, now)
	sess.logStart(jpath)
	return sess, nil
}

// openRequestLog opens the request log (--log), if asked for: a regular
// file or none, never through a symbolic link: a named pipe would block
// the open (and signals with it) until something reads it, and a link
// would make paydash write somewhere else.
func (sess *session) openRequestLog(s config.Settings) error {
	if s.LogPath == "" {
		return nil
	}
	f, err := safefile.OpenAppend(s.LogPath, 0o600)
	var odd *safefile.NotRegularError
	if errors.As(err, &odd) {
		return config.Usagef("%s: it is %s; give a regular file paydash may write", config.Describe(s.LogFrom, s.LogPath), odd.What())
	}
	if err != nil {
		return config.Usagef("%s: %s; give a file paydash may write", config.Describe(s.LogFrom, s.LogPath), config.DescribeFileErr(err))
	}
	sess.logFile, sess.logPath = f, s.LogPath
	sess.logger = slog.New(slog.NewJSONHandler(f, nil))
	return nil
}

// startEmbeddedSandbox starts the sandbox paydash runs on without a base
// URL and points cfg at it, with full rights on both interfaces so that
// everything shows. It returns the merchants' names: the sandbox's, unless
// the config file names them.
func (sess *session) startEmbeddedSandbox(ctx context.Context, s config.Settings, cfg *backend.Config) (map[string]string, error) {
	srv, err := startSandbox(ctx, sandboxOptions)
	if err != nil {
		if ctx.Err() != nil {
			return nil, errInterrupted
		}
		return nil, fmt.Errorf("starting the embedded sandbox: %w", err)
	}
	sess.sandbox = srv
	info := srv.Info()
	cfg.BaseURL, cfg.RootCAs, cfg.Sandbox = srv.BaseURL(), srv.CertPool(), true
	cfg.V2Token, cfg.V1Login, cfg.V1Password = info.V2Token, "", ""
	for _, u := range info.V1Users {
		if u.Role == sandbox.RoleAccountant {
			cfg.V1Login, cfg.V1Password = u.Login, u.Password
		}
	}
	cfg.MerchantIDs = slices.Clone(info.MerchantIDs)
	names := map[string]string{}
	for _, m := range info.Merchants {
		names[m.ID] = m.Name
	}
	for id, name := range s.MerchantNames {
		names[id] = name
	}
	if s.Merchant != "" && !slices.Contains(cfg.MerchantIDs, s.Merchant) {
		return nil, config.Usagef("%s is not a merchant of the embedded sandbox (it has %s)",
			config.Describe(s.MerchantFrom, s.Merchant), config.MerchantList(cfg.MerchantIDs, names))
	}
	return names, nil
}

// openDebugLog opens the debug log (--debug-log), if asked for, as the
// request log is opened: a regular file or a new one, never through a
// symbolic link, mode 600, appended to.
func (sess *session) openDebugLog(s config.Settings) error {
	if s.DebugLogPath == "" {
		return nil
	}
	f, err := safefile.OpenAppend(s.DebugLogPath, 0o600)
	var odd *safefile.NotRegularError
	if errors.As(err, &odd) {
		return config.Usagef("%s: it is %s; give a regular file paydash may write", config.Describe(s.DebugLogFrom, s.DebugLogPath), odd.What())
	} else if err != nil {
		return config.Usagef("%s: %s; give a file paydash may write", config.Describe(s.DebugLogFrom, s.DebugLogPath), config.DescribeFileErr(err))
	}
	sess.debugFile, sess.debug = f, debuglog.New(f, nil)
	return nil
}

// logStart writes the session's first line in the request log.
func (sess *session) logStart(journalPath string) {
	d := sess.backend.Describe()
	sess.logger.Info("paydash started", "version", version, "sandbox", d.Sandbox, "base_url", d.BaseURL,
		"interfaces", d.Interfaces, "merchants", d.MerchantIDs, "read_only", d.ReadOnly, "journal", journalPath,
		"pending_actions", len(sess.pending))
}

// runDashboard is `paydash` without a subcommand.
func runDashboard(ctx context.Context, args []string, stdout, stderr io.Writer, sys config.System) int {
	s, err := config.Load(args, sys)
	if errors.Is(err, config.ErrHelp) {
		config.Usage(stdout, sys)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "paydash: %v\n", err)
		return 2
	}
	for _, w := range s.Warnings {
		fmt.Fprintf(stderr, "paydash: %s\n", w)
	}
	if ctx.Err() != nil { // a signal while the files were read
		fmt.Fprintf(stderr, "paydash: %v\n", errInterrupted)
		return 1
	}
	if err := checkTerminal(); err != nil {
		fmt.Fprintf(stderr, "paydash: %v\n", err)
		return 1
	}
	sess, err := openSession(ctx, s, time.Now())
	if err == nil && ctx.Err() != nil {
		// A signal while the session opened: the dashboard is not started.
		_ = sess.Close()
		err = errInterrupted
	}
	if err != nil {
		fmt.Fprintf(stderr, "paydash: %v\n", err)
		var ue *config.UsageError
		if errors.As(err, &ue) {
			return 2
		}
		return 1
	}
	open, err := runUI(ctx, sess, stdout)
	journalPath := sess.journal.Path()
	if cerr := sess.Close(); cerr != nil && err == nil {
		err = cerr
	}
	if sess.debugLost != "" {
		fmt.Fprintf(stderr, "paydash: %s\n", sess.debugLost)
	}
	if err != nil {
		fmt.Fprintf(stderr, "paydash: %v\n", err)
		return 1
	}
	if len(open) > 0 {
		// The screen is restored: what is still in doubt is said where it
		// stays readable, with the status of its own that scripts can see.
		for _, line := range open {
			fmt.Fprintf(stderr, "paydash: %s\n", line)
		}
		fmt.Fprintf(stderr, "paydash: the journal %s holds them; start paydash against the same service to find them out\n", journalPath)
		return exitOutcomeUnknown
	}
	return 0
}

// exitOutcomeUnknown is the exit status after quitting with actions whose
// outcome is not known (listed on stderr; the next start finds them out).
const exitOutcomeUnknown = 3

// errInterrupted is a signal (SIGINT, SIGTERM, SIGHUP) before the
// dashboard or the sandbox was up: the command stops at once, exit 1.
var errInterrupted = errors.New("interrupted before it was ready")

// startSandbox is sandbox.Start, returning as soon as ctx ends even if the
// sandbox is still seeding (Start stops seeding when ctx ends, but a
// signal must stop the command at once whatever it is doing): the process
// is about to end, and a sandbox that comes up after all is closed.
func startSandbox(ctx context.Context, opts sandbox.Options) (*sandbox.Server, error) {
	type started struct {
		srv *sandbox.Server
		err error
	}
	done := make(chan started, 1)
	go func() {
		srv, err := sandbox.Start(ctx, opts)
		done <- started{srv, err}
	}()
	select {
	case r := <-done:
		if r.err == nil && ctx.Err() != nil {
			_ = r.srv.Close()
			return nil, ctx.Err()
		}
		return r.srv, r.err
	case <-ctx.Done():
		go func() {
			if r := <-done; r.srv != nil {
				_ = r.srv.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// checkTerminal refuses to draw the dashboard into a pipe or a file.
func checkTerminal() error {
	if !term.IsTerminal(os.Stdin.Fd()) || !term.IsTerminal(os.Stdout.Fd()) {
		return errors.New("the dashboard needs a terminal (stdin and stdout); to serve the sandbox alone, run: paydash sandbox")
	}
	return nil
}

// openKnown opens the known-tokens file. A damaged one is moved aside and
// one that cannot be read at all leaves the tokens in memory for this run;
// either way the dashboard starts, and says so.
func openKnown(path string, sess *session) *known.Store {
	st, err := known.Open(path)
	var (
		corrupt *known.CorruptError
		odd     *safefile.NotRegularError
	)
	switch {
	case errors.As(err, &corrupt) && corrupt.MovedTo != "":
		sess.warnings = append(sess.warnings, fmt.Sprintf("the known tokens file %s could not be read (%v); it was moved to %s and paydash starts a new one",
			path, corrupt.Reason, corrupt.MovedTo))
	case errors.As(err, &odd):
		// A link, a pipe, a device: nothing was read through it, and
		// nothing will be written there.
		sess.warnings = append(sess.warnings, fmt.Sprintf("the known tokens file %s is %s; paydash leaves it as it is and keeps the tokens it learns for this run only",
			odd.Path, odd.What()))
		return known.NewMemory()
	case err != nil:
		sess.warnings = append(sess.warnings, fmt.Sprintf("the known tokens file %s cannot be used (%v); the Tokens tab keeps what it learns for this run only",
			path, err))
		return known.NewMemory()
	}
	return st
}
