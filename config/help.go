package config

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"paydash/keys"
)

// Usage is paydash --help: every flag, the environment and the config file.
func Usage(w io.Writer, sys System) {
	cfg, journal := usagePaths(sys)
	io.WriteString(w, usageCommands)
	fmt.Fprintf(w, usageFlags, cfg, journal)
	io.WriteString(w, usageEnvironment+usageConfigFile)
	fmt.Fprintf(w, usageActions, wrapWords(actionNames(), "  ", 78))
	io.WriteString(w, usageExitStatus)
}

// usagePaths are the default config file and journal the help names: the
// ones of this machine, or where they would be when its directories are
// not known.
func usagePaths(sys System) (cfg, journal string) {
	cfg = defaultConfigPath(sys)
	if cfg == "" {
		cfg = "$XDG_CONFIG_HOME/paydash/config.toml"
	}
	state := stateDir(sys)
	if state == "" {
		state = "$XDG_STATE_HOME/paydash"
	}
	return cfg, filepath.Join(state, "journal.jsonl")
}

// The sections of the help, in order.
const (
	usageCommands = `paydash: a terminal dashboard for payment support staff.

Usage:
  paydash [flags]           the dashboard; without a base URL it runs on the
                            embedded sandbox, started inside the process
  paydash sandbox [flags]   the embedded payment service alone, for tests and
                            other tools (paydash sandbox --help)
  paydash serve --people PATH [flags]
                            the dashboard for a team, over SSH, with roles,
                            limits and approvals (paydash serve --help)
  paydash version           print the version, commit, build date and Go
  paydash paths             list the files paydash reads and writes, here
  paydash completion bash|zsh|fish
                            print a shell completion script

`

	// usageFlags takes the default config file and journal.
	usageFlags = `Flags:
  --base-url URL       the payment service, e.g. https://pay.example.com
                       (default: the embedded sandbox)
  --ca-file PATH       PEM file of CA certificates to trust besides the system's
                       (a regular file of at most 4 MiB)
  --merchant ID        the merchant shown first (one of merchants, if listed)
  --config PATH        the config file (default %s)
  --read-only          send no action: capture, cancel and refund are refused
  --journal PATH       append-only journal of every action sent (default
                       %s, or
                       sandbox-journal.jsonl there on the sandbox);
                       known-tokens.json beside it keeps the Tokens tab's tokens
  --log PATH           request log, JSON lines, secrets left out (default none)
  --debug-log PATH     for bug reports: keys ignored, dialogs, actions, reads,
                       one line each, secrets left out (default none)
  --refresh DURATION   how often the lists refresh, from 1s to 24h (default 10s)

`

	usageEnvironment = `Environment:
  PAYDASH_V2_TOKEN     bearer token of the current interface (/api/v2)
  PAYDASH_V1_LOGIN     login of the legacy interface (/api/v1)
  PAYDASH_V1_PASSWORD  its password
  NO_COLOR             when set and not empty, no colours
  COLORFGBG            "fg;bg" colour numbers some terminals set: a light bg is
                       assumed light until the terminal answers its colour query
  XDG_CONFIG_HOME, XDG_STATE_HOME   where the config file and the journal live

Secrets come only from the environment or the config file, never from flags.
Flags override the environment, which overrides the config file.

`

	usageConfigFile = `Config file (TOML; relative paths are relative to the file; keep it mode 600
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
  debug_log   = "~/paydash/debug.log"
  refresh     = "10s"
  v2_token    = "..."
  v1_login    = "accountant"
  v1_password = "..."
  confirm_typed_over = { RUB = 50000, USD = 1000, "*" = 5000 }
                                     # above these a confirmation asks for the
                                     # payment id's last four digits typed;
                                     # "*": any currency not named (1000 unless
                                     # set); a single number: every currency
  theme       = "auto"               # auto (the terminal's palette, light or
                                     # dark as it says), dark, light (colours
                                     # that read on white), none (NO_COLOR)
  parallel_reads = 4                 # requests at once when a sort or a search
                                     # reads the whole period (1 to 16; 1: one
                                     # page after another)

  [keys]                             # remap keys: action = ["key", ...]
  refund = ["ctrl+r"]

  [colors]                           # accent, good, warning, bad, muted:
  warning = "130"                    # 0-255, "#rrggbb" or "red", "bright-red"

`

	// usageActions takes the list of action names.
	usageActions = `Actions [keys] can remap (the dashboard's ? help shows their keys):
%s
`

	usageExitStatus = `Exit status: 0 after quitting, 1 when paydash could not start (terminal,
sandbox, journal) or a signal stopped it before it did, 2 for a bad flag,
environment or config file (the config and CA files must be regular files of
at most 1 MiB and 4 MiB), 3 after quitting with actions whose outcome is not
known (listed on stderr; the next start against the same service finds them
out).
`
)

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
