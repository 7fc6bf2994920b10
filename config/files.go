package config

import "path/filepath"

// File is one file paydash reads or writes: Path where it is on this
// machine ("" when none is, Note then says why), Note what else to know.
type File struct {
	Name, Path, Note string
}

// KnownTokensPath is the known-tokens file: beside the journal.
func KnownTokensPath(journal string) string {
	return filepath.Join(filepath.Dir(journal), "known-tokens.json")
}

// ApprovalsPath is where paydash serve keeps its requests for approval:
// beside the journal.
func ApprovalsPath(journalPath string) string {
	return filepath.Join(filepath.Dir(journalPath), "approvals.jsonl")
}

// HostKeyPath is where the host key of a paydash serve goes: in the state
// directory; "" when none is known.
func HostKeyPath(stateDir string) string {
	if stateDir == "" {
		return ""
	}
	return filepath.Join(stateDir, "host_key")
}

// noStateDir is the Note of a file that would live in the state directory
// when none is known.
const noStateDir = "no place known: set XDG_STATE_HOME, or give --journal PATH"

// Files is every file paydash reads or writes, resolved for the dashboard
// flags args on sys as Load resolves them (the config file found, its
// journal and log keys, the flags over them, the state directory). A bad
// flag is a *UsageError and no list; a config file that cannot be read is
// a *UsageError beside the list, resolved without it.
func Files(args []string, sys System) ([]File, error) {
	flags, err := parseFlags(args, nil)
	if err != nil {
		return nil, err
	}
	file, fileErr := readConfig(flags, sys)
	s := Settings{StateDir: stateDir(sys)}
	src := sources{flags: flags, file: file.config, path: file.path, sys: sys}
	if err := src.files(&s); err != nil {
		return nil, err
	}

	cfg := File{Name: "config file", Path: file.path}
	if cfg.Path == "" && !flags.set["config"] {
		cfg.Path = defaultConfigPath(sys)
	}
	if cfg.Path == "" {
		cfg.Path, cfg.Note = flags.config, "" // --config given but unreadable: fileErr says why
		if cfg.Path == "" {
			cfg.Note = "no place known: set XDG_CONFIG_HOME, or give --config PATH"
		}
	}
	files := []File{cfg}
	live, _ := s.Journal(false)
	sandbox, _ := s.Journal(true)
	for _, f := range []File{{Name: "journal", Path: live}, {Name: "sandbox journal", Path: sandbox}} {
		if f.Path == "" {
			f.Note = noStateDir
		}
		files = append(files, f)
	}
	known := File{Name: "known tokens", Note: noStateDir}
	if live != "" {
		known = File{Name: known.Name, Path: KnownTokensPath(live)}
	}
	log := File{Name: "request log", Path: s.LogPath}
	if log.Path == "" {
		log.Note = "none (--log PATH, or log in the config file)"
	}
	debug := File{Name: "debug log", Path: s.DebugLogPath}
	if debug.Path == "" {
		debug.Note = "none (--debug-log PATH, or debug_log in the config file)"
	}
	host := File{Name: "host key", Path: HostKeyPath(s.StateDir), Note: "paydash serve's, made on its first start (--host-key PATH)"}
	if host.Path == "" {
		host.Note = "no place known: set XDG_STATE_HOME"
	}
	approvals := File{Name: "approvals", Note: noStateDir}
	if live != "" {
		approvals = File{Name: approvals.Name, Path: ApprovalsPath(live), Note: "paydash serve's requests for approval"}
	}
	return append(files, known, log, debug, host, approvals), fileErr
}

// FileMerchants are the merchant ids of the config file: the one at path,
// or the default one when path is "" (none when there is none), for the
// completion of --merchant.
func FileMerchants(path string, sys System) ([]string, error) {
	file, err := readConfig(flagValues{config: path, set: map[string]bool{"config": path != ""}}, sys)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, m := range file.config.Merchants {
		ids = append(ids, m.ID)
	}
	return ids, nil
}
