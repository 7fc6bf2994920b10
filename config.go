package main

import (
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"paydash/backend/money"
	"paydash/backend/transport"
	"paydash/keys"
	"paydash/ui"
)

// Environment variables (design §7). Secrets come only from here or the
// config file, never from flags, so they stay out of shell history and ps.
const (
	envV2Token    = "PAYDASH_V2_TOKEN"
	envV1Login    = "PAYDASH_V1_LOGIN"
	envV1Password = "PAYDASH_V1_PASSWORD"
	envNoColor    = "NO_COLOR"
	envColorFGBG  = "COLORFGBG"
)

// The lists refresh every --refresh: from once a second to once a day.
const (
	defaultRefresh = 10 * time.Second
	minRefresh     = time.Second
	maxRefresh     = 24 * time.Hour
)

// system is what the command reads from the machine around it, so that
// tests can give it an environment of their own.
type system struct {
	getenv        func(string) string
	userConfigDir func() (string, error)
	userHomeDir   func() (string, error)
	goos          string
}

func hostSystem() system {
	return system{getenv: os.Getenv, userConfigDir: os.UserConfigDir, userHomeDir: os.UserHomeDir, goos: runtime.GOOS}
}

// settings is the command line, the environment and the config file
// merged (flags over environment over file) and checked.
type settings struct {
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
	JournalPath   string // "" = the default for live or sandbox (see journalPath)
	LogPath       string // "" = no request log
	LogFrom       string // where LogPath came from, for messages
	Refresh       time.Duration
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
	Dark       bool
	NoMouse    bool     // mouse = false in the config file: the mouse starts off
	ConfigPath string   // the file read, "" if none
	Warnings   []string // printed on stderr before the dashboard starts
	// ShownWarnings are those of Warnings that are about what the
	// dashboard shows (a merchant left out, a name cleaned): the dashboard
	// shows them too, once it is up.
	ShownWarnings []string
}

// usageError is bad input: a one-line message (keys problems may add
// lines) naming the flag or key and what to do; the command exits 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{msg: fmt.Sprintf(format, a...)} }

// fileConfig is the config file, decoded once (decodeConfig). Its keys are
// the flags' names with underscores, the secrets, confirm_typed_over and the
// [keys] table of keys.ParseConfig.
type fileConfig struct {
	BaseURL string
	CAFile  string
	// Merchants are written as ids (strings or numbers) or tables of id
	// and name: merchants = [1001, "1002", { id = "1003", name = "Horizon" }];
	// checked and cleaned by parseMerchants.
	Merchants  []configMerchant
	Merchant   string
	ReadOnly   bool
	NoMouse    bool // mouse = false
	Journal    string
	Log        string
	Refresh    string
	V2Token    string
	V1Login    string
	V1Password string
	// TypedOver is a number or string (every currency) or a table of
	// currency = amount; checked and read by typedOver.
	TypedOver any
	// Text is the file as read, for keys.ParseConfig: it reads the [keys]
	// table from the text itself, to name the line of a bad binding.
	Text []byte
	// Warnings are the file's problems that do not stop paydash (a
	// merchant listed twice, a name with control characters), each
	// naming the line and key.
	Warnings []string
}

var configKeys = []string{"base_url", "ca_file", "merchants", "merchant", "read_only", "journal", "log",
	"refresh", "v2_token", "v1_login", "v1_password", "confirm_typed_over", "keys", "mouse"}

// defaultTypedOver are the amounts above which a confirmation asks for the
// last four digits of the payment id typed (issue 7): a refund or capture
// a support person does not do every day, about 500–1,500 US dollars in
// the currencies named. "*" is every other currency: 1,000 of it, the
// threshold of the dollar and the euro. No currency's unit is worth much
// more than three dollars (the Kuwaiti dinar, the strongest, about 3.3), so
// this never lets a large amount through unchecked; in currencies with
// small units (KRW, IDR, VND…) it asks for nearly every amount, until
// confirm_typed_over names them.
var defaultTypedOver = map[string]string{
	"RUB": "50000", "USD": "1000", "EUR": "1000", "GBP": "1000", "CHF": "1000",
	"CNY": "10000", "KZT": "500000", "BYN": "3000", "UAH": "40000", "JPY": "150000",
	"*": "1000",
}

// flagValues are the dashboard's flags as parsed.
type flagValues struct {
	baseURL, caFile, merchant, config, journal, log, refresh string
	readOnly                                                 bool
	set                                                      map[string]bool // flags given on the command line
}

func newFlagSet(v *flagValues) *flag.FlagSet {
	fs := flag.NewFlagSet("paydash", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported by the caller in one line
	fs.StringVar(&v.baseURL, "base-url", "", "")
	fs.StringVar(&v.caFile, "ca-file", "", "")
	fs.StringVar(&v.merchant, "merchant", "", "")
	fs.StringVar(&v.config, "config", "", "")
	fs.BoolVar(&v.readOnly, "read-only", false, "")
	fs.StringVar(&v.journal, "journal", "", "")
	fs.StringVar(&v.log, "log", "", "")
	fs.StringVar(&v.refresh, "refresh", "", "")
	return fs
}

// errHelp is returned by loadSettings for --help.
var errHelp = flag.ErrHelp

// loadSettings parses args, reads the environment and the config file, and
// checks everything that can be checked without the network. Warnings go
// into the result; errors are *usageError (exit 2) or errHelp.
func loadSettings(args []string, sys system) (settings, error) {
	var fv flagValues
	fs := newFlagSet(&fv)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return settings{}, errHelp
		}
		return settings{}, usagef("%v (run paydash --help for the flags)", err)
	}
	if fs.NArg() > 0 {
		return settings{}, usagef("unknown command %q (run paydash --help)", fs.Arg(0))
	}
	fv.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { fv.set[f.Name] = true })

	s := settings{NoColor: sys.getenv(envNoColor) != "", Keys: keys.Default(), Dark: true}
	if dark, known := ui.DarkFromColorFGBG(sys.getenv(envColorFGBG)); known {
		s.Dark = dark // until the terminal answers the background query
	}

	// The config file: --config must exist; the default may be missing.
	var fc fileConfig
	path, explicit := fv.config, fv.set["config"]
	if explicit && path == "" {
		return settings{}, usagef("--config: empty path; give the config file's path")
	}
	if !explicit {
		path = defaultConfigPath(sys)
	}
	if path != "" {
		raw, err := readSmallFile(path, maxConfigSize)
		switch {
		case err == nil:
			s.ConfigPath = path
			if fc, err = decodeConfig(path, raw); err != nil {
				return settings{}, err
			}
			if w := permissionWarning(path, fc, sys.goos); w != "" {
				s.Warnings = append(s.Warnings, w)
			}
		case explicit:
			return settings{}, usagef("--config %s: %v", path, describeFileErr(err))
		case !errors.Is(err, os.ErrNotExist):
			return settings{}, usagef("config file %s: %v; fix it, or give another with --config PATH", path, describeFileErr(err))
		}
	}
	in := func(key string) string { return fmt.Sprintf("%s in %s", key, s.ConfigPath) }

	// Flags over environment over file.
	pick := func(flagName, flagVal, envName, fileKey, fileVal string) (val, from string) {
		switch {
		case flagName != "" && fv.set[flagName]:
			return flagVal, "--" + flagName
		case envName != "" && sys.getenv(envName) != "":
			return sys.getenv(envName), envName
		case fileVal != "":
			return fileVal, in(fileKey)
		}
		return "", ""
	}
	baseDir := filepath.Dir(s.ConfigPath)
	filePath := func(p string) string { return resolvePath(p, baseDir, sys) }

	var from string
	s.BaseURL, from = pick("base-url", fv.baseURL, "", "base_url", fc.BaseURL)
	s.BaseURL = strings.TrimSpace(s.BaseURL)
	if s.BaseURL != "" {
		u, err := transport.CheckBaseURL(s.BaseURL)
		if err != nil {
			var be *transport.BaseURLError
			if !errors.As(err, &be) {
				return settings{}, usagef("%s: %v", from, err)
			}
			// The URL as the error gives it: any password in it left out.
			return settings{}, usagef("%s: %s", describe(from, strconv.Quote(be.URL)), be.Problem)
		}
		s.BaseURL = u
	}

	if fv.set["ca-file"] {
		s.CAFile, from = expandHome(fv.caFile, sys), "--ca-file"
	} else if fc.CAFile != "" {
		s.CAFile, from = filePath(fc.CAFile), in("ca_file")
	}
	if s.CAFile != "" {
		pool, err := loadCAs(s.CAFile)
		if err != nil {
			return settings{}, usagef("%s: %v", describe(from, s.CAFile), err)
		}
		s.RootCAs = pool
	}

	for _, w := range fc.Warnings {
		w = "warning: " + s.ConfigPath + ": " + w
		s.Warnings = append(s.Warnings, w)
		s.ShownWarnings = append(s.ShownWarnings, w)
	}
	for _, m := range fc.Merchants { // checked, and without repeats
		s.Merchants = append(s.Merchants, m.ID)
		if m.Name != "" {
			if s.MerchantNames == nil {
				s.MerchantNames = map[string]string{}
			}
			s.MerchantNames[m.ID] = m.Name
		}
	}
	s.Merchant, from = pick("merchant", strings.TrimSpace(fv.merchant), "", "merchant", fc.Merchant)
	s.MerchantFrom = from
	if s.Merchant != "" || fv.set["merchant"] {
		if err := checkMerchantID(s.Merchant); err != nil {
			return settings{}, usagef("%s: %v", describe(from, strconv.Quote(s.Merchant)), err)
		}
		// On the sandbox its own merchants count (checked once it runs).
		if s.BaseURL != "" && len(s.Merchants) > 0 && !slices.Contains(s.Merchants, s.Merchant) {
			return settings{}, usagef("%s is not one of the merchants (%s); give one of them, or add it to merchants in %s",
				describe(from, s.Merchant), merchantList(s.Merchants, s.MerchantNames), configName(s.ConfigPath, sys))
		}
	}

	s.ReadOnly = fc.ReadOnly
	s.NoMouse = fc.NoMouse
	if fv.set["read-only"] {
		s.ReadOnly = fv.readOnly
	}

	if fv.set["journal"] {
		if fv.journal == "" {
			return settings{}, usagef("--journal: empty path; give a file to append the journal of actions to")
		}
		s.JournalPath = expandHome(fv.journal, sys)
	} else if fc.Journal != "" {
		s.JournalPath = filePath(fc.Journal)
	}
	if fv.set["log"] {
		s.LogPath, s.LogFrom = expandHome(fv.log, sys), "--log"
	} else if fc.Log != "" {
		s.LogPath, s.LogFrom = filePath(fc.Log), in("log")
	}

	s.Refresh = defaultRefresh
	if r, from := pick("refresh", fv.refresh, "", "refresh", fc.Refresh); r != "" || from != "" {
		d, err := time.ParseDuration(strings.TrimSpace(r))
		if err != nil {
			return settings{}, usagef("%s is not a duration; write it like 10s, 30s or 2m", describe(from, strconv.Quote(r)))
		}
		if d < minRefresh {
			return settings{}, usagef("%s is too short; refresh at most once a second: give a duration from %s to %s (e.g. 10s)",
				describe(from, shortDur(d)), shortDur(minRefresh), shortDur(maxRefresh))
		}
		if d > maxRefresh {
			return settings{}, usagef("%s is too long; give a duration from %s to %s (e.g. 10s)",
				describe(from, shortDur(d)), shortDur(minRefresh), shortDur(maxRefresh))
		}
		s.Refresh = d
	}

	typed, err := typedOver(fc.TypedOver)
	if err != nil {
		return settings{}, usagef("%s: %v", in("confirm_typed_over"), err)
	}
	s.TypedOver = typed

	s.V2Token, _ = pick("", "", envV2Token, "v2_token", fc.V2Token)
	s.V1Login, _ = pick("", "", envV1Login, "v1_login", fc.V1Login)
	s.V1Password, _ = pick("", "", envV1Password, "v1_password", fc.V1Password)

	if fc.Text != nil {
		overrides, err := keys.ParseConfig(fc.Text)
		if err == nil {
			err = s.Keys.Apply(overrides)
		}
		if err != nil {
			return settings{}, usagef("%s: %v", s.ConfigPath, err)
		}
	}

	if s.BaseURL != "" {
		if len(s.Merchants) == 0 && s.Merchant == "" {
			return settings{}, usagef("no merchant for %s: give --merchant ID, or merchants = [\"ID\", ...] in %s (the service cannot list them)",
				s.BaseURL, configName(s.ConfigPath, sys))
		}
		if len(s.Merchants) == 0 {
			s.Merchants = []string{s.Merchant}
		}
	}
	return s, nil
}

// typedOver reads confirm_typed_over over the defaults: one amount for
// every currency (confirm_typed_over = 20000), or a table by currency
// (confirm_typed_over = { RUB = 100000, USD = "2500.50", "*" = 5000 }).
func typedOver(v any) (map[string]money.Decimal, error) {
	out := map[string]money.Decimal{}
	for cur, amount := range defaultTypedOver {
		out[cur] = money.MustParse(amount)
	}
	if v == nil {
		return out, nil
	}
	if table, ok := v.(map[string]any); ok {
		for _, cur := range slices.Sorted(maps.Keys(table)) {
			code := strings.ToUpper(strings.TrimSpace(cur))
			if code != "*" && !money.ValidCurrency(code) {
				return nil, fmt.Errorf("%q is not a currency code (three letters, such as RUB), nor \"*\" for the others", cur)
			}
			d, err := typedAmount(table[cur])
			if err != nil {
				return nil, fmt.Errorf("%s: %v", code, err)
			}
			out[code] = d
		}
		return out, nil
	}
	d, err := typedAmount(v)
	if err != nil {
		return nil, err
	}
	return map[string]money.Decimal{"*": d}, nil
}

// typedAmount is one threshold: a number not below zero (0: always ask).
func typedAmount(v any) (money.Decimal, error) {
	var text string
	switch x := v.(type) {
	case int64:
		text = strconv.FormatInt(x, 10)
	case float64:
		text = strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		text = strings.ReplaceAll(strings.TrimSpace(x), "_", "")
	default:
		return 0, fmt.Errorf("must be an amount such as 50000 or \"1000.50\", not %s", tomlKind(v))
	}
	d, err := money.Parse(text)
	if err != nil || d.IsNegative() {
		return 0, fmt.Errorf("%q is not an amount; write it like 50000 or \"1000.50\" (0 asks for every amount)", text)
	}
	return d, nil
}

// describe names a setting and its value for a message: "--refresh 5ms",
// or "refresh 5ms in /path/config.toml" when it came from the file.
func describe(from, val string) string {
	if key, path, ok := strings.Cut(from, " in "); ok {
		return key + " " + val + " in " + path
	}
	return from + " " + val
}

// decodeConfig decodes the TOML text, once, and checks it. Unknown keys and
// values of the wrong type are reported all at once, by key name, in one
// line.
func decodeConfig(path string, raw []byte) (fileConfig, error) {
	var doc map[string]any
	md, err := toml.Decode(string(raw), &doc)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return fileConfig{}, usagef("%s: line %d: %s", path, pe.Position.Line, pe.Message)
		}
		return fileConfig{}, usagef("%s: %v", path, err)
	}
	var problems []string
	var merchants []configMerchant
	var warnings []string
	for _, k := range slices.Sorted(maps.Keys(doc)) {
		if k == "merchants" {
			var found []string
			merchants, found, warnings = parseMerchants(doc[k], string(raw))
			problems = append(problems, found...)
			continue
		}
		if want, known := configTypes[k]; known {
			if msg := want(doc[k]); msg != "" {
				problems = append(problems, k+" "+msg)
			}
		}
	}
	// The keys not known, in the file's order; a table is named by its
	// keys: "extra.a", not "extra" too.
	var und []string
	for _, k := range md.Keys() {
		if _, known := configTypes[k[0]]; !known && !slices.Contains(und, k.String()) {
			und = append(und, k.String())
		}
	}
	var unknown []string
	for _, k := range und {
		if !slices.ContainsFunc(und, func(o string) bool { return strings.HasPrefix(o, k+".") }) {
			unknown = append(unknown, strconv.Quote(k))
		}
	}
	if len(unknown) > 0 {
		problems = append(problems, fmt.Sprintf("unknown key(s) %s (the keys are %s)",
			strings.Join(unknown, ", "), strings.Join(configKeys, ", ")))
	}
	if len(problems) > 0 {
		return fileConfig{}, usagef("%s: %s", path, strings.Join(problems, "; "))
	}

	// Every value has its type now (configTypes).
	str := func(k string) string { v, _ := doc[k].(string); return v }
	fc := fileConfig{
		BaseURL: str("base_url"), CAFile: str("ca_file"), Merchant: idString(doc["merchant"]),
		Journal: str("journal"), Log: str("log"), Refresh: str("refresh"),
		V2Token: str("v2_token"), V1Login: str("v1_login"), V1Password: str("v1_password"),
		TypedOver: doc["confirm_typed_over"], Text: raw, Merchants: merchants, Warnings: warnings,
	}
	fc.ReadOnly, _ = doc["read_only"].(bool)
	if m, ok := doc["mouse"].(bool); ok {
		fc.NoMouse = !m
	}
	return fc, nil
}

// isBool checks a true/false value.
func isBool(v any) string {
	if _, ok := v.(bool); ok {
		return ""
	}
	return "must be true or false (no quotes), not " + tomlKind(v)
}

// idString is a merchant id as written in the file, a string or a whole
// number (checked by isID); "" for none.
func idString(v any) string {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t)
	case int64:
		return strconv.FormatInt(t, 10)
	}
	return ""
}

// configTypes checks each known key's value; "" means fine.
var configTypes = map[string]func(v any) string{
	"base_url": isString, "ca_file": isString, "journal": isString, "log": isString,
	"refresh": isString, "v2_token": isString, "v1_login": isString, "v1_password": isString,
	"read_only":          isBool,
	"mouse":              isBool,
	"merchant":           isID,
	"merchants":          func(any) string { return "" }, // parseMerchants
	"keys":               func(any) string { return "" }, // keys.ParseConfig
	"confirm_typed_over": func(any) string { return "" }, // typedOver
}

func isString(v any) string {
	if _, ok := v.(string); ok {
		return ""
	}
	return "must be a string in quotes, not " + tomlKind(v)
}

func isID(v any) string {
	switch v.(type) {
	case string, int64:
		return ""
	}
	return "must be a merchant id (a string or a whole number), not " + tomlKind(v)
}

func tomlKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64, float64:
		return "a number"
	case bool:
		return "true or false"
	case []any, []map[string]any:
		return "a list"
	case map[string]any:
		return "a table"
	}
	return "a date or time"
}

// permissionWarning warns, as ssh does, about a config file holding a
// secret that other users can read.
func permissionWarning(path string, fc fileConfig, goos string) string {
	if goos == "windows" {
		return ""
	}
	var secrets []string
	if fc.V2Token != "" {
		secrets = append(secrets, "v2_token")
	}
	if fc.V1Password != "" {
		secrets = append(secrets, "v1_password")
	}
	if len(secrets) == 0 {
		return ""
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm()&0o077 == 0 {
		return ""
	}
	return fmt.Sprintf("warning: %s holds %s and other users can read it (mode %04o); run: chmod 600 %s",
		path, strings.Join(secrets, " and "), st.Mode().Perm(), path)
}

// loadCAs returns the system's roots plus the PEM certificates in path.
func loadCAs(path string) (*x509.CertPool, error) {
	raw, err := readSmallFile(path, maxCAFileSize)
	if err != nil {
		return nil, errors.New(describeFileErr(err))
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

// The files paydash reads whole are bounded: a config file is a few
// kilobytes, a CA bundle a few hundred (the system's whole bundle is about
// 200 KB).
const (
	maxConfigSize = 1 << 20 // 1 MiB
	maxCAFileSize = 4 << 20 // 4 MiB
)

// notRegularError is a path naming a directory, device, pipe or socket,
// which readSmallFile refuses before opening (a pipe would block the open,
// /dev/zero would never end).
type notRegularError struct{ mode os.FileMode }

func (e *notRegularError) Error() string {
	kind := "a directory"
	switch m := e.mode; {
	case m.IsDir():
	case m&os.ModeCharDevice != 0:
		kind = "a character device"
	case m&os.ModeDevice != 0:
		kind = "a block device"
	case m&os.ModeNamedPipe != 0:
		kind = "a named pipe"
	case m&os.ModeSocket != 0:
		kind = "a socket"
	default:
		kind = "mode " + m.String()
	}
	return "not a regular file (" + kind + ")"
}

// tooLargeError is a file larger than readSmallFile's limit.
type tooLargeError struct{ size, limit int64 }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("larger than %s (%s bytes)", sizeName(e.limit), thousands(int(e.size)))
}

func sizeName(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// readSmallFile reads the whole of a file the user named, if it is a
// regular file (symbolic links followed) of at most limit bytes; anything
// else is refused before a byte is read: *notRegularError, *tooLargeError.
// Errors of the file system are returned as they are (errors.Is(err,
// os.ErrNotExist) holds for a missing file).
func readSmallFile(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &notRegularError{mode: st.Mode()}
	}
	if st.Size() > limit {
		return nil, &tooLargeError{size: st.Size(), limit: limit}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The same checks on what was opened: the path may have changed since.
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &notRegularError{mode: st.Mode()}
	}
	raw, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(raw)) > limit { // it grew
		return nil, &tooLargeError{size: int64(len(raw)), limit: limit}
	}
	return raw, nil
}

// shortDur writes 24h rather than 24h0m0s, 1m rather than 1m0s.
func shortDur(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// describeFileErr says what went wrong with a file in words, without Go's
// "open PATH:" prefix (the caller names the file).
func describeFileErr(err error) string {
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "no such file"
	case errors.Is(err, os.ErrPermission):
		return "permission denied"
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// defaultConfigPath is $XDG_CONFIG_HOME/paydash/config.toml, or the OS's
// config directory (os.UserConfigDir); "" when neither is known.
func defaultConfigPath(sys system) string {
	if x := sys.getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "paydash", "config.toml")
	}
	if dir, err := sys.userConfigDir(); err == nil && dir != "" {
		return filepath.Join(dir, "paydash", "config.toml")
	}
	return ""
}

// stateDir is where the journal lives by default: $XDG_STATE_HOME/paydash,
// else ~/.local/state/paydash on Unix-likes, else the OS's config
// directory (macOS, Windows); "" when none is known.
func stateDir(sys system) string {
	if x := sys.getenv("XDG_STATE_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "paydash")
	}
	switch sys.goos {
	case "darwin", "windows", "ios", "plan9":
	default:
		if home, err := sys.userHomeDir(); err == nil && home != "" {
			return filepath.Join(home, ".local", "state", "paydash")
		}
	}
	if dir, err := sys.userConfigDir(); err == nil && dir != "" {
		return filepath.Join(dir, "paydash")
	}
	return ""
}

// journalPath is the journal to open: the flag or config key, else
// journal.jsonl in the state directory, or sandbox-journal.jsonl there on
// the embedded sandbox (so that play never mixes with real actions).
func journalPath(s settings, sandbox bool, sys system) (string, error) {
	if s.JournalPath != "" {
		return s.JournalPath, nil
	}
	dir := stateDir(sys)
	if dir == "" {
		return "", usagef("no place for the journal of actions (neither XDG_STATE_HOME nor a home directory is known); give --journal PATH")
	}
	if sandbox {
		return filepath.Join(dir, "sandbox-journal.jsonl"), nil
	}
	return filepath.Join(dir, "journal.jsonl"), nil
}

// resolvePath expands ~/ and makes a config file's relative path relative
// to the file's directory.
func resolvePath(p, baseDir string, sys system) string {
	p = expandHome(p, sys)
	if !filepath.IsAbs(p) && baseDir != "" && baseDir != "." {
		return filepath.Join(baseDir, p)
	}
	return p
}

func expandHome(p string, sys system) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := sys.userHomeDir(); err == nil && home != "" {
			return filepath.Join(home, strings.TrimPrefix(p, "~"))
		}
	}
	return p
}

// configName names the config file in advice: the one read, else the
// default path.
func configName(path string, sys system) string {
	if path != "" {
		return path
	}
	if p := defaultConfigPath(sys); p != "" {
		return p
	}
	return "the config file"
}

// usage is paydash --help: every flag, the environment and the config file.
func usage(w io.Writer, sys system) {
	cfg := defaultConfigPath(sys)
	if cfg == "" {
		cfg = "$XDG_CONFIG_HOME/paydash/config.toml"
	}
	state := stateDir(sys)
	if state == "" {
		state = "$XDG_STATE_HOME/paydash"
	}
	fmt.Fprintf(w, `paydash: a terminal dashboard for payment support staff.

Usage:
  paydash [flags]           the dashboard; without a base URL it runs on the
                            embedded sandbox, started inside the process
  paydash sandbox [flags]   the embedded payment service alone, for tests and
                            other tools (paydash sandbox --help)
  paydash version           print the version

Flags:
  --base-url URL       the payment service, e.g. https://pay.example.com
                       (default: the embedded sandbox)
  --ca-file PATH       PEM file of CA certificates to trust besides the system's
                       (a regular file of at most 4 MiB)
  --merchant ID        the merchant shown first (one of merchants, if listed)
  --config PATH        the config file (default %s)
  --read-only          send no action: capture, cancel and refund are refused
  --journal PATH       append-only journal of every action sent (default
                       %s, or
                       sandbox-journal.jsonl there on the sandbox)
  --log PATH           request log, JSON lines, secrets left out (default none)
  --refresh DURATION   how often the lists refresh, from 1s to 24h (default 10s)

Environment:
  PAYDASH_V2_TOKEN     bearer token of the current interface (/api/v2)
  PAYDASH_V1_LOGIN     login of the legacy interface (/api/v1)
  PAYDASH_V1_PASSWORD  its password
  NO_COLOR             when set and not empty, no colours
  COLORFGBG            "fg;bg" colour numbers some terminals set: a light bg is
                       assumed light until the terminal answers its colour query
  XDG_CONFIG_HOME, XDG_STATE_HOME   where the config file and the journal live

Secrets come only from the environment or the config file, never from flags.
Flags override the environment, which overrides the config file.

Config file (TOML; relative paths are relative to the file; keep it mode 600
when it holds a secret):
  base_url    = "https://pay.example.com"
  ca_file     = "ca.pem"
  merchants   = ["1001", { id = "1002", name = "Page Turner Books" }]
                                     # needed with a base URL (v2 has no list):
                                     # an id, or an id and the name that the
                                     # status bar and the switcher show
  merchant    = "1001"               # the one shown first (its id)
  read_only   = false
  mouse       = true                 # false: the mouse starts off, so the
                                     # terminal selects text (ctrl+o toggles)
  journal     = "~/paydash/journal.jsonl"
  log         = "~/paydash/requests.log"
  refresh     = "10s"
  v2_token    = "..."
  v1_login    = "accountant"
  v1_password = "..."
  confirm_typed_over = { RUB = 50000, USD = 1000, "*" = 5000 }
                                     # above these a confirmation asks for the
                                     # payment id's last four digits typed;
                                     # "*": any currency not named (1000 unless
                                     # set); a single number: every currency

  [keys]                             # remap keys: action = ["key", ...]
  refund = ["ctrl+r"]

Actions [keys] can remap (the dashboard's ? help shows their keys):
%s
Exit status: 0 after quitting, 1 when paydash could not start (terminal,
sandbox, journal) or a signal stopped it before it did, 2 for a bad flag,
environment or config file (the config and CA files must be regular files of
at most 1 MiB and 4 MiB), 3 after quitting with actions whose outcome is not
known (listed on stderr; the next start against the same service finds them
out).
`, cfg, filepath.Join(state, "journal.jsonl"), wrapWords(actionNames(), "  ", 78))
}

func actionNames() []string {
	var names []string
	for _, a := range keys.ActionNames() {
		names = append(names, string(a))
	}
	return names
}

// wrapWords lists words separated by commas, in lines of at most width
// characters, each starting with indent.
func wrapWords(words []string, indent string, width int) string {
	var b strings.Builder
	line := indent
	for i, w := range words {
		if i < len(words)-1 {
			w += ","
		}
		if len(line) > len(indent) && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += w
	}
	if len(line) > len(indent) {
		b.WriteString(line + "\n")
	}
	return b.String()
}
