// Package config reads what paydash runs with: the command line, the
// environment and the config file, merged (flags over environment over
// file) and checked without the network. Load is the whole of it; Usage is
// the --help text that documents it.
package config

import (
	"cmp"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"paydash/backend/money"
	"paydash/backend/transport"
	"paydash/keys"
	"paydash/ui"
)

// Environment variables. Secrets come only from here or the config file,
// never from flags, so they stay out of shell history and ps.
const (
	EnvV2Token    = "PAYDASH_V2_TOKEN"
	EnvV1Login    = "PAYDASH_V1_LOGIN"
	EnvV1Password = "PAYDASH_V1_PASSWORD"
	envNoColor    = "NO_COLOR"
	envColorFGBG  = "COLORFGBG"
)

// The lists refresh every --refresh: from once a second to once a day.
const (
	defaultRefresh = 10 * time.Second
	minRefresh     = time.Second
	maxRefresh     = 24 * time.Hour
)

// System is what the command reads from the machine around it, so that
// tests can give it an environment of their own.
type System struct {
	Getenv        func(string) string
	UserConfigDir func() (string, error)
	UserHomeDir   func() (string, error)
	GOOS          string
}

// Host is the machine paydash runs on.
func Host() System {
	return System{Getenv: os.Getenv, UserConfigDir: os.UserConfigDir, UserHomeDir: os.UserHomeDir, GOOS: runtime.GOOS}
}

// Settings is the command line, the environment and the config file
// merged (flags over environment over file) and checked.
type Settings struct {
	BaseURL   string         // "" = the embedded sandbox
	CAFile    string         // "" = none
	RootCAs   *x509.CertPool // the system's roots plus CAFile's; nil without CAFile
	Merchants []string       // from the config file; the sandbox brings its own
	// MerchantNames are the names the config file gives merchants, by id
	// (cleaned, see parseMerchants); nil when it names none.
	MerchantNames map[string]string
	Merchant      string // the merchant shown first; "" = the first one
	MerchantFrom  string // where Merchant came from, for messages
	ReadOnly      bool
	JournalPath   string // "" = the default for live or sandbox (see Journal)
	LogPath       string // "" = no request log
	LogFrom       string // where LogPath came from, for messages
	DebugLogPath  string // "" = no debug log (--debug-log)
	DebugLogFrom  string // where DebugLogPath came from, for messages
	Refresh       time.Duration
	// ParallelReads is how many requests a period read whole (a sort, a
	// search) has out at once: parallel_reads in the config file, 4 when
	// not given (backend.Config.ParallelReads).
	ParallelReads int
	V2Token       string
	V1Login       string
	V1Password    string
	// TypedOver is, per currency, the amount above which a confirmation
	// asks for the last digits of the payment id typed ("*": any other
	// currency); defaultTypedOver merged with confirm_typed_over.
	TypedOver map[string]money.Decimal
	Keys      keys.Map
	NoColor   bool
	// Dark is the terminal's background as assumed at start (COLORFGBG,
	// else dark), until the terminal answers the background query.
	Dark    bool
	NoMouse bool // mouse = false in the config file: the mouse starts off
	// Theme is theme in the config file ("auto" when none: ui.ChosenTheme)
	// and Colors its [colors], checked.
	Theme      string
	Colors     map[string]string
	ConfigPath string // the file read, "" if none
	// ConfigName names the config file in advice: ConfigPath, else the
	// default path, else "the config file".
	ConfigName string
	// StateDir is where the journal lives unless JournalPath says
	// otherwise; "" when no place is known (see stateDir).
	StateDir string
	Warnings []string // printed on stderr before the dashboard starts
	// ShownWarnings are those of Warnings that are about what the
	// dashboard shows (a merchant left out, a name cleaned): the dashboard
	// shows them too, once it is up.
	ShownWarnings []string
}

// UsageError is bad input: a one-line message (keys problems may add
// lines) naming the flag or key and what to do; the command exits 2.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

// Usagef is a *UsageError with a formatted message.
func Usagef(format string, a ...any) error { return &UsageError{msg: fmt.Sprintf(format, a...)} }

// ErrHelp is returned by Load for --help and -h.
var ErrHelp = flag.ErrHelp

// Load parses args, reads the environment and the config file, and checks
// everything that can be checked without the network. Warnings go into the
// result; errors are *UsageError (exit 2) or ErrHelp.
//
// It goes in steps: the flags; the terminal's environment; the config file
// found, read and decoded; then each setting merged from its sources and
// checked, one step each, in the order their errors are reported; last,
// the places derived from the environment (the config file named in
// advice, the state directory).
func Load(args []string, sys System) (Settings, error) { return LoadWith(args, sys, nil) }

// LoadWith is Load for a command with flags of its own besides the
// dashboard's (paydash serve): more adds them to the flag set, so that
// they are parsed, and reported when wrong, with the others.
func LoadWith(args []string, sys System, more func(*flag.FlagSet)) (Settings, error) {
	flags, err := parseFlags(args, more)
	if err != nil {
		return Settings{}, err
	}
	s := terminal(sys)
	file, err := readConfig(flags, sys)
	if err != nil {
		return Settings{}, err
	}
	s.ConfigPath = file.path
	s.Warnings = append(s.Warnings, file.warnings...)
	s.ShownWarnings = append(s.ShownWarnings, file.shown...)

	src := sources{flags: flags, file: file.config, path: file.path, sys: sys}
	for _, step := range []func(*Settings) error{
		src.service,
		src.caFile,
		src.merchants,
		src.switches,
		src.files,
		src.refresh,
		src.confirmTypedOver,
		src.secrets,
		src.keyMap,
		src.liveMerchants,
	} {
		if err := step(&s); err != nil {
			return Settings{}, err
		}
	}
	s.ConfigName = configName(s.ConfigPath, sys)
	s.StateDir = stateDir(sys)
	return s, nil
}

// flagValues are the dashboard's flags as parsed.
type flagValues struct {
	baseURL, caFile, merchant, config, journal, log, debugLog, refresh string
	readOnly                                                           bool
	set                                                                map[string]bool // flags given on the command line
}

func newFlagSet(v *flagValues) *flag.FlagSet {
	fs := flag.NewFlagSet("paydash", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported by the caller in one line
	// The usages hold only the argument's name (flag.UnquoteUsage): the
	// help is Usage; the completion scripts read PATH and ID from here.
	fs.StringVar(&v.baseURL, "base-url", "", "`URL`")
	fs.StringVar(&v.caFile, "ca-file", "", "`PATH`")
	fs.StringVar(&v.merchant, "merchant", "", "`ID`")
	fs.StringVar(&v.config, "config", "", "`PATH`")
	fs.BoolVar(&v.readOnly, "read-only", false, "")
	fs.StringVar(&v.journal, "journal", "", "`PATH`")
	fs.StringVar(&v.log, "log", "", "`PATH`")
	fs.StringVar(&v.debugLog, "debug-log", "", "`PATH`")
	fs.StringVar(&v.refresh, "refresh", "", "`DURATION`")
	return fs
}

// FlagSet is the dashboard's flags (and paydash paths'), for the
// completion scripts: their names, and the argument each takes.
func FlagSet() *flag.FlagSet { return newFlagSet(&flagValues{}) }

// FlagError is an error of the flag package with a flag written as the
// help writes it: "for flag -payments" becomes "for flag --payments"
// (one-letter flags keep their one dash).
func FlagError(err error) string {
	return singleDashFlag.ReplaceAllString(err.Error(), "$1 --$2")
}

var singleDashFlag = regexp.MustCompile(`(for flag|for|not defined:|needs an argument:) -([a-z][a-z0-9-]+)`)

// parseFlags is the first step: the flags, and which of them were given.
func parseFlags(args []string, more func(*flag.FlagSet)) (flagValues, error) {
	var fv flagValues
	fs := newFlagSet(&fv)
	if more != nil {
		more(fs)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return fv, ErrHelp
		}
		return fv, Usagef("%s (run paydash --help for the flags)", FlagError(err))
	}
	if fs.NArg() > 0 {
		return fv, Usagef("unknown command %q (run paydash --help)", fs.Arg(0))
	}
	fv.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { fv.set[f.Name] = true })
	return fv, nil
}

// terminal is the settings before any source is read: the default keys,
// and the colours the environment asks for.
func terminal(sys System) Settings {
	s := Settings{NoColor: sys.Getenv(envNoColor) != "", Keys: keys.Default(), Dark: true}
	if dark, known := ui.DarkFromColorFGBG(sys.Getenv(envColorFGBG)); known {
		s.Dark = dark // until the terminal answers the background query
	}
	return s
}

// loadedFile is the config file as read: nothing when there is none.
type loadedFile struct {
	path     string // "" when none was read
	config   fileConfig
	warnings []string // for stderr: its mode, then its own problems
	shown    []string // those the dashboard shows too
}

// readConfig finds the config file, reads and decodes it: --config must
// exist; the default may be missing.
func readConfig(flags flagValues, sys System) (loadedFile, error) {
	path, explicit := flags.config, flags.set["config"]
	if explicit && path == "" {
		return loadedFile{}, Usagef("--config: empty path; give the config file's path")
	}
	if !explicit {
		path = defaultConfigPath(sys)
	}
	if path == "" {
		return loadedFile{}, nil
	}
	raw, err := readSmallFile(path, maxConfigSize)
	switch {
	case err == nil:
	case explicit:
		return loadedFile{}, Usagef("--config %s: %v", path, DescribeFileErr(err))
	case errors.Is(err, os.ErrNotExist):
		return loadedFile{}, nil
	default:
		return loadedFile{}, Usagef("config file %s: %v; fix it, or give another with --config PATH", path, DescribeFileErr(err))
	}
	fc, err := decodeConfig(path, raw)
	if err != nil {
		return loadedFile{}, err
	}
	out := loadedFile{path: path, config: fc}
	if w := permissionWarning(path, fc, sys.GOOS); w != "" {
		out.warnings = append(out.warnings, w)
	}
	for _, w := range fc.Warnings {
		w = "warning: " + path + ": " + w
		out.warnings = append(out.warnings, w)
		out.shown = append(out.shown, w)
	}
	return out, nil
}

// sources are the places a setting comes from: the flags, the environment
// and the config file. Each of their methods below is one step of Load:
// it merges one setting (or a few that go together) and checks it.
type sources struct {
	flags flagValues
	file  fileConfig
	path  string // the config file read, "" if none
	sys   System
}

// pick is flags over environment over file: the value and where it came
// from ("--merchant", "PAYDASH_V2_TOKEN", "merchant in PATH"), both "" when
// no source sets it. An empty flagName or envName is a source the setting
// does not have.
func (src sources) pick(flagName, flagVal, envName, fileKey, fileVal string) (val, from string) {
	switch {
	case flagName != "" && src.flags.set[flagName]:
		return flagVal, "--" + flagName
	case envName != "" && src.sys.Getenv(envName) != "":
		return src.sys.Getenv(envName), envName
	case fileVal != "":
		return fileVal, src.in(fileKey)
	}
	return "", ""
}

// in names a key of the config file for a message: "log in PATH".
func (src sources) in(key string) string { return fmt.Sprintf("%s in %s", key, src.path) }

// filePath is a path the config file gives: ~/ expanded, and a relative
// one relative to the file's directory.
func (src sources) filePath(p string) string { return resolvePath(p, filepath.Dir(src.path), src.sys) }

// service is the base URL: none for the embedded sandbox, else an https
// URL without a trailing slash.
func (src sources) service(s *Settings) error {
	url, from := src.pick("base-url", src.flags.baseURL, "", "base_url", src.file.BaseURL)
	s.BaseURL = strings.TrimSpace(url)
	if s.BaseURL == "" {
		return nil
	}
	u, err := transport.CheckBaseURL(s.BaseURL)
	if err != nil {
		var be *transport.BaseURLError
		if !errors.As(err, &be) {
			return Usagef("%s: %v", from, err)
		}
		// The URL as the error gives it: any password in it left out.
		return Usagef("%s: %s", Describe(from, strconv.Quote(be.URL)), be.Problem)
	}
	s.BaseURL = u
	return nil
}

// caFile is the CA certificates to trust besides the system's, read now.
func (src sources) caFile(s *Settings) error {
	var from string
	if src.flags.set["ca-file"] {
		s.CAFile, from = expandHome(src.flags.caFile, src.sys), "--ca-file"
	} else if src.file.CAFile != "" {
		s.CAFile, from = src.filePath(src.file.CAFile), src.in("ca_file")
	}
	if s.CAFile == "" {
		return nil
	}
	pool, err := loadCAs(s.CAFile)
	if err != nil {
		return Usagef("%s: %v", Describe(from, s.CAFile), err)
	}
	s.RootCAs = pool
	return nil
}

// merchants is the config file's merchants (checked, and without repeats
// already) with their names, and the merchant shown first, which must be
// one of them on a live service that lists them.
func (src sources) merchants(s *Settings) error {
	for _, m := range src.file.Merchants {
		s.Merchants = append(s.Merchants, m.ID)
		if m.Name != "" {
			if s.MerchantNames == nil {
				s.MerchantNames = map[string]string{}
			}
			s.MerchantNames[m.ID] = m.Name
		}
	}
	s.Merchant, s.MerchantFrom = src.pick("merchant", strings.TrimSpace(src.flags.merchant), "", "merchant", src.file.Merchant)
	if s.Merchant == "" && !src.flags.set["merchant"] {
		return nil
	}
	if err := checkMerchantID(s.Merchant); err != nil {
		return Usagef("%s: %v", Describe(s.MerchantFrom, strconv.Quote(s.Merchant)), err)
	}
	// On the sandbox its own merchants count (checked once it runs).
	if s.BaseURL != "" && len(s.Merchants) > 0 && !slices.Contains(s.Merchants, s.Merchant) {
		return Usagef("%s is not one of the merchants (%s); give one of them, or add it to merchants in %s",
			Describe(s.MerchantFrom, s.Merchant), MerchantList(s.Merchants, s.MerchantNames), configName(s.ConfigPath, src.sys))
	}
	return nil
}

// switches are read_only (--read-only over the file), mouse and the
// theme.
func (src sources) switches(s *Settings) error {
	s.ReadOnly = src.file.ReadOnly
	s.NoMouse = src.file.NoMouse
	s.ParallelReads = cmp.Or(src.file.ParallelReads, defaultParallelReads)
	s.Theme, s.Colors = cmp.Or(src.file.Theme, "auto"), src.file.Colors
	if src.flags.set["read-only"] {
		s.ReadOnly = src.flags.readOnly
	}
	return nil
}

// files are the journal, the request log and the debug log paths.
func (src sources) files(s *Settings) error {
	if src.flags.set["journal"] {
		if src.flags.journal == "" {
			return Usagef("--journal: empty path; give a file to append the journal of actions to")
		}
		s.JournalPath = expandHome(src.flags.journal, src.sys)
	} else if src.file.Journal != "" {
		s.JournalPath = src.filePath(src.file.Journal)
	}
	if src.flags.set["log"] {
		s.LogPath, s.LogFrom = expandHome(src.flags.log, src.sys), "--log"
	} else if src.file.Log != "" {
		s.LogPath, s.LogFrom = src.filePath(src.file.Log), src.in("log")
	}
	if src.flags.set["debug-log"] {
		s.DebugLogPath, s.DebugLogFrom = expandHome(src.flags.debugLog, src.sys), "--debug-log"
	} else if src.file.DebugLog != "" {
		s.DebugLogPath, s.DebugLogFrom = src.filePath(src.file.DebugLog), src.in("debug_log")
	}
	return nil
}

// refresh is how often the lists refresh, within its bounds.
func (src sources) refresh(s *Settings) error {
	s.Refresh = defaultRefresh
	r, from := src.pick("refresh", src.flags.refresh, "", "refresh", src.file.Refresh)
	if r == "" && from == "" {
		return nil
	}
	d, err := time.ParseDuration(strings.TrimSpace(r))
	if err != nil {
		return Usagef("%s is not a duration; write it like 10s, 30s or 2m", Describe(from, strconv.Quote(r)))
	}
	if d < minRefresh {
		return Usagef("%s is too short; refresh at most once a second: give a duration from %s to %s (e.g. 10s)",
			Describe(from, ShortDuration(d)), ShortDuration(minRefresh), ShortDuration(maxRefresh))
	}
	if d > maxRefresh {
		return Usagef("%s is too long; give a duration from %s to %s (e.g. 10s)",
			Describe(from, ShortDuration(d)), ShortDuration(minRefresh), ShortDuration(maxRefresh))
	}
	s.Refresh = d
	return nil
}

// confirmTypedOver is confirm_typed_over over the defaults.
func (src sources) confirmTypedOver(s *Settings) error {
	typed, err := typedOver(src.file.TypedOver)
	if err != nil {
		return Usagef("%s: %v", src.in("confirm_typed_over"), err)
	}
	s.TypedOver = typed
	return nil
}

// secrets are the credentials: the environment over the file.
func (src sources) secrets(s *Settings) error {
	s.V2Token, _ = src.pick("", "", EnvV2Token, "v2_token", src.file.V2Token)
	s.V1Login, _ = src.pick("", "", EnvV1Login, "v1_login", src.file.V1Login)
	s.V1Password, _ = src.pick("", "", EnvV1Password, "v1_password", src.file.V1Password)
	return nil
}

// keyMap is the default key map with the file's [keys] table applied.
func (src sources) keyMap(s *Settings) error {
	if src.file.Text == nil {
		return nil
	}
	overrides, err := keys.ParseConfig(src.file.Text)
	if err == nil {
		err = s.Keys.Apply(overrides)
	}
	if err != nil {
		return Usagef("%s: %v", s.ConfigPath, err)
	}
	return nil
}

// liveMerchants is the last check: a live service cannot list its
// merchants, so one must be named; --merchant alone makes the list.
func (src sources) liveMerchants(s *Settings) error {
	if s.BaseURL == "" {
		return nil
	}
	if len(s.Merchants) == 0 && s.Merchant == "" {
		return Usagef("no merchant for %s: give --merchant ID, or merchants = [\"ID\", ...] in %s (the service cannot list them)",
			s.BaseURL, configName(s.ConfigPath, src.sys))
	}
	if len(s.Merchants) == 0 {
		s.Merchants = []string{s.Merchant}
	}
	return nil
}

// loadCAs returns the system's roots plus the PEM certificates in path.
func loadCAs(path string) (*x509.CertPool, error) {
	raw, err := readSmallFile(path, maxCAFileSize)
	if err != nil {
		return nil, errors.New(DescribeFileErr(err))
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(raw) {
		return nil, errors.New("no PEM certificate in it; give the service's CA certificate in PEM form (-----BEGIN CERTIFICATE-----)")
	}
	return pool, nil
}

func checkMerchantID(id string) error {
	if id == "" {
		return errors.New("empty merchant id")
	}
	for _, r := range id {
		if r <= ' ' || r == 0x7f || r == ',' {
			return errors.New("a merchant id cannot hold spaces, commas or control characters")
		}
	}
	return nil
}

// Describe names a setting and its value for a message: "--refresh 5ms",
// or "refresh 5ms in /path/config.toml" when it came from the file.
func Describe(from, val string) string {
	if key, path, ok := strings.Cut(from, " in "); ok {
		return key + " " + val + " in " + path
	}
	return from + " " + val
}

// ShortDuration writes 24h rather than 24h0m0s, 1m rather than 1m0s: a
// duration as a person gives it in a flag or the config file.
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
