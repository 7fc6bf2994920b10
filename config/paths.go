package config

import (
	"path/filepath"
	"strings"
)

// defaultConfigPath is $XDG_CONFIG_HOME/paydash/config.toml, or the OS's
// config directory (os.UserConfigDir); "" when neither is known.
func defaultConfigPath(sys System) string {
	if x := sys.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "paydash", "config.toml")
	}
	if dir, err := sys.UserConfigDir(); err == nil && dir != "" {
		return filepath.Join(dir, "paydash", "config.toml")
	}
	return ""
}

// stateDir is where the journal lives by default: $XDG_STATE_HOME/paydash,
// else ~/.local/state/paydash on Unix-likes, else the OS's config
// directory (macOS, Windows); "" when none is known.
func stateDir(sys System) string {
	if x := sys.Getenv("XDG_STATE_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "paydash")
	}
	switch sys.GOOS {
	case "darwin", "windows", "ios", "plan9":
	default:
		if home, err := sys.UserHomeDir(); err == nil && home != "" {
			return filepath.Join(home, ".local", "state", "paydash")
		}
	}
	if dir, err := sys.UserConfigDir(); err == nil && dir != "" {
		return filepath.Join(dir, "paydash")
	}
	return ""
}

// Journal is the journal to open: the flag or config key, else
// journal.jsonl in the state directory, or sandbox-journal.jsonl there on
// the embedded sandbox (so that play never mixes with real actions).
func (s Settings) Journal(sandbox bool) (string, error) {
	if s.JournalPath != "" {
		return s.JournalPath, nil
	}
	dir := s.StateDir
	if dir == "" {
		return "", Usagef("no place for the journal of actions (neither XDG_STATE_HOME nor a home directory is known); give --journal PATH")
	}
	if sandbox {
		return filepath.Join(dir, "sandbox-journal.jsonl"), nil
	}
	return filepath.Join(dir, "journal.jsonl"), nil
}

// resolvePath expands ~/ and makes a config file's relative path relative
// to the file's directory.
func resolvePath(p, baseDir string, sys System) string {
	p = expandHome(p, sys)
	if !filepath.IsAbs(p) && baseDir != "" && baseDir != "." {
		return filepath.Join(baseDir, p)
	}
	return p
}

func expandHome(p string, sys System) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := sys.UserHomeDir(); err == nil && home != "" {
			return filepath.Join(home, strings.TrimPrefix(p, "~"))
		}
	}
	return p
}

// configName names the config file in advice: the one read, else the
// default path (Settings.ConfigName).
func configName(path string, sys System) string {
	if path != "" {
		return path
	}
	if p := defaultConfigPath(sys); p != "" {
		return p
	}
	return "the config file"
}
