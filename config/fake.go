package config

import (
	"os"
	"path/filepath"
)

// FakeMachine is a made-up linux machine, for tests here and in the
// command, so that they never read the real one: Env is its environment
// (read at each call, so later changes to the map count), Home and
// ConfigHome the user's home and config directories.
type FakeMachine struct {
	Env              map[string]string
	Home, ConfigHome string
}

// NewFakeMachine makes a machine whose home and config directories are
// under dir (a test's temporary directory); the home exists, the config
// directory not yet.
func NewFakeMachine(dir string) (*FakeMachine, error) {
	m := &FakeMachine{Env: map[string]string{}, Home: filepath.Join(dir, "home"), ConfigHome: filepath.Join(dir, "config")}
	return m, os.MkdirAll(m.Home, 0o700)
}

// System is the machine as Load sees it.
func (m *FakeMachine) System() System {
	return System{
		Getenv:        func(k string) string { return m.Env[k] },
		UserConfigDir: func() (string, error) { return m.ConfigHome, nil },
		UserHomeDir:   func() (string, error) { return m.Home, nil },
		GOOS:          "linux",
	}
}

// WriteConfig writes text to the default config file with mode perm (also
// when the file exists with another) and returns its path.
func (m *FakeMachine) WriteConfig(text string, perm os.FileMode) (string, error) {
	path := filepath.Join(m.ConfigHome, "paydash", "config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(path, []byte(text), perm); err != nil {
		return "", err
	}
	return path, os.Chmod(path, perm)
}
