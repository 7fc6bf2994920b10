package config

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"paydash/backend/money"
	"paydash/keys"
	"paydash/ui"

	"github.com/BurntSushi/toml"
)

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
	NoMouse    bool              // mouse = false
	Theme      string            // theme = "auto" | "dark" | "light" | "none"
	Colors     map[string]string // [colors]: role = colour
	Journal    string
	Log        string
	DebugLog   string
	Refresh    string
	V2Token    string
	V1Login    string
	V1Password string
	// TypedOver is a number or string (every currency) or a table of
	// currency = amount; checked and read by typedOver.
	TypedOver any
	// ParallelReads is parallel_reads, checked (0: not given).
	ParallelReads int
	// Text is the file as read, for keys.ParseConfig: it reads the [keys]
	// table from the text itself, to name the line of a bad binding.
	Text []byte
	// Warnings are the file's problems that do not stop paydash (a
	// merchant listed twice, a name with control characters), each
	// naming the line and key.
	Warnings []string
}

var configKeys = []string{"base_url", "ca_file", "merchants", "merchant", "read_only", "journal", "log",
	"debug_log", "refresh", "v2_token", "v1_login", "v1_password", "confirm_typed_over", "keys", "mouse",
	"theme", "colors", "parallel_reads"}

// decodeConfig decodes the TOML text, once, and checks it. Unknown keys and
// values of the wrong type are reported all at once, by key name, in one
// line.
func decodeConfig(path string, raw []byte) (fileConfig, error) {
	var doc map[string]any
	md, err := toml.Decode(string(raw), &doc)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return fileConfig{}, Usagef("%s: line %d: %s", path, pe.Position.Line, pe.Message)
		}
		return fileConfig{}, Usagef("%s: %v", path, err)
	}
	var problems []string
	var merchants []configMerchant
	var warnings []string
	for _, k := range slices.Sorted(maps.Keys(doc)) {
		if k == "merchants" {
			var found []string
			merchants, found, warnings = parseMerchants(doc[k], raw)
			problems = append(problems, found...)
			continue
		}
		if k == "parallel_reads" {
			if msg := isParallelReads(doc[k]); msg != "" {
				problems = append(problems, at(keyLine(raw, k), k+" "+msg))
			}
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
		return fileConfig{}, Usagef("%s: %s", path, strings.Join(problems, "; "))
	}

	// Every value has its type now (configTypes).
	str := func(k string) string { v, _ := doc[k].(string); return v }
	fc := fileConfig{
		BaseURL: str("base_url"), CAFile: str("ca_file"), Merchant: idString(doc["merchant"]),
		Journal: str("journal"), Log: str("log"), DebugLog: str("debug_log"), Refresh: str("refresh"),
		V2Token: str("v2_token"), V1Login: str("v1_login"), V1Password: str("v1_password"),
		TypedOver: doc["confirm_typed_over"], Text: raw, Merchants: merchants, Warnings: warnings,
	}
	fc.ReadOnly, _ = doc["read_only"].(bool)
	if n, ok := doc["parallel_reads"].(int64); ok {
		fc.ParallelReads = int(n)
	}
	if m, ok := doc["mouse"].(bool); ok {
		fc.NoMouse = !m
	}
	fc.Theme = str("theme")
	if t, ok := doc["colors"].(map[string]any); ok {
		fc.Colors = map[string]string{}
		for role, v := range t {
			fc.Colors[role], _ = v.(string)
		}
	}
	return fc, nil
}

// isBool checks a true/false value.
func isBool(v any) string {
	if _, ok := v.(bool); ok {
		return ""
	}
	return "must be true or false (no quotes), not " + keys.TOMLKind(v)
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
	"base_url": isString, "ca_file": isString, "journal": isString, "log": isString, "debug_log": isString,
	"refresh": isString, "v2_token": isString, "v1_login": isString, "v1_password": isString,
	"read_only":          isBool,
	"theme":              isThemeMode,
	"colors":             isColors,
	"mouse":              isBool,
	"merchant":           isID,
	"merchants":          func(any) string { return "" }, // parseMerchants
	"keys":               func(any) string { return "" }, // keys.ParseConfig
	"confirm_typed_over": func(any) string { return "" }, // typedOver
	"parallel_reads":     func(any) string { return "" }, // isParallelReads, with its line
}

// The requests a period read whole (a sort, a search) has out at once
// (backend/period.go): parallel_reads, from 1 (page after page) to
// maxParallelReads; defaultParallelReads when not given.
const (
	defaultParallelReads = 4
	maxParallelReads     = 16
)

// isParallelReads checks parallel_reads: a whole number from 1 to
// maxParallelReads.
func isParallelReads(v any) string {
	want := fmt.Sprintf("must be a whole number from 1 (one request at a time) to %d (requests at once)", maxParallelReads)
	n, ok := v.(int64)
	if !ok {
		return want + ", not " + keys.TOMLKind(v)
	}
	if n < 1 || n > maxParallelReads {
		return want + ", not " + strconv.FormatInt(n, 10)
	}
	return ""
}

// isThemeMode checks theme: one of ui.ThemeModes.
func isThemeMode(v any) string {
	s, ok := v.(string)
	switch {
	case ok && slices.Contains(ui.ThemeModes, s):
		return ""
	case ok:
		return "must be one of " + quoted(ui.ThemeModes) + ", not " + strconv.Quote(s)
	}
	return "must be one of " + quoted(ui.ThemeModes) + ", not " + keys.TOMLKind(v)
}

// isColors checks [colors]: a table of the roles of ui.ColorRoles, each a
// colour ui.ParseColor reads.
func isColors(v any) string {
	t, ok := v.(map[string]any)
	if !ok {
		return "must be a table ([colors]) of " + strings.Join(ui.ColorRoles, ", ") + ", not " + keys.TOMLKind(v)
	}
	var problems []string
	for _, role := range slices.Sorted(maps.Keys(t)) {
		if !slices.Contains(ui.ColorRoles, role) {
			problems = append(problems, fmt.Sprintf("%q is not a role (the roles are %s)", role, strings.Join(ui.ColorRoles, ", ")))
			continue
		}
		s, ok := t[role].(string)
		if !ok {
			problems = append(problems, role+" must be a colour in quotes, not "+keys.TOMLKind(t[role]))
			continue
		}
		if _, err := ui.ParseColor(s); err != nil {
			problems = append(problems, role+": "+err.Error())
		}
	}
	return strings.Join(problems, "; ")
}

// quoted is values quoted and joined: "a", "b" or "c".
func quoted(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

func isString(v any) string {
	if _, ok := v.(string); ok {
		return ""
	}
	return "must be a string in quotes, not " + keys.TOMLKind(v)
}

func isID(v any) string {
	switch v.(type) {
	case string, int64:
		return ""
	}
	return "must be a merchant id (a string or a whole number), not " + keys.TOMLKind(v)
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
	return fmt.Sprintf("larger than %s (%s bytes)", sizeName(e.limit), money.Count(int(e.size)))
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

// DescribeFileErr says what went wrong with a file in words, without Go's
// "open PATH:" prefix (the caller names the file).
func DescribeFileErr(err error) string {
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
