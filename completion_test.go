package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/config"
)

// Each script is valid in its shell (where the shell is installed) and
// names every command and every flag of the flag sets.
func TestCompletionScriptsParseAndNameEveryFlag(t *testing.T) {
	ts := newTestSystem(t)
	var names []string
	config.FlagSet().VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	sandboxFlags, _ := newSandboxFlagSet()
	sandboxFlags.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	require.Contains(t, names, "merchant")
	require.Contains(t, names, "info-file")

	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			code, script, stderr := ts.runCmd("completion", shell)
			require.Equal(t, 0, code, stderr)
			for _, w := range []string{"sandbox", "version", "paths", "completion", "__complete-merchants"} {
				assert.Contains(t, script, w)
			}
			for _, n := range names {
				assert.Contains(t, script, n, "flag %s", n)
			}
			bin, err := exec.LookPath(shell)
			if err != nil {
				t.Skipf("%s is not installed here", shell)
			}
			path := filepath.Join(t.TempDir(), "paydash."+shell)
			require.NoError(t, os.WriteFile(path, []byte(script), 0o600))
			out, err := exec.Command(bin, "-n", path).CombinedOutput()
			require.NoError(t, err, "%s -n: %s", shell, out)
		})
	}
	code, _, stderr := ts.runCmd("completion", "tcsh")
	assert.Equal(t, 2, code)
	assert.True(t, strings.HasPrefix(stderr, "paydash completion: "), stderr)
	code, _, _ = ts.runCmd("completion")
	assert.Equal(t, 2, code)
}

// The bash script, sourced, completes commands, a subcommand's flags, and
// --merchant from the config file through paydash __complete-merchants.
func TestCompletionBashCompletes(t *testing.T) {
	bash, dir := completionBench(t, "bash")
	complete := func(line ...string) string {
		t.Helper()
		sh := `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($#-1)); _paydash; printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command(bash, append([]string{"--norc", "-c", sh, "bash", filepath.Join(dir, "c.bash")}, line...)...)
		cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		return string(out)
	}
	assert.Equal(t, "sandbox\n", complete("paydash", "sa"))
	assert.Equal(t, "--seed\n--settle-delay\n", sortLines(complete("paydash", "sandbox", "--se")))
	assert.Equal(t, "1001\n1002\n", complete("paydash", "--merchant", ""))
	assert.Equal(t, "1002\n", complete("paydash", "--merchant", "1002"))
	assert.Equal(t, "bash\n", complete("paydash", "completion", "b"))
}

func sortLines(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	slices.Sort(lines)
	return strings.Join(lines, "\n") + "\n"
}

// completionBench is the shell's program (the test is skipped without
// it) and a folder holding the script as c.<shell> and a stand-in paydash,
// to put first on PATH, whose hidden command prints merchants 1001 and 1002.
func completionBench(t *testing.T, shell string) (bin, dir string) {
	t.Helper()
	bin, err := exec.LookPath(shell)
	if err != nil {
		t.Skipf("%s is not installed here", shell)
	}
	_, script, _ := newTestSystem(t).runCmd("completion", shell)
	dir = t.TempDir()
	fake := "#!/bin/sh\n[ \"$1\" = __complete-merchants ] && printf '1001\\n1002\\n'\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "paydash"), []byte(fake), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "c."+shell), []byte(script), 0o600))
	return bin, dir
}

// The hidden command prints the config file's merchant ids, of the
// --config typed on the line if there is one; nothing on error.
func TestCompletionMerchantsCommand(t *testing.T) {
	ts := newTestSystem(t)
	ts.writeConfig(t, "merchants = [\"1001\", 1002]\n", 0o600)
	code, stdout, _ := ts.runCmd("__complete-merchants")
	assert.Equal(t, 0, code)
	assert.Equal(t, "1001\n1002\n", stdout)
	other := filepath.Join(t.TempDir(), "o.toml")
	require.NoError(t, os.WriteFile(other, []byte("merchants = [\"7\"]\n"), 0o600))
	for _, args := range [][]string{{"--config", other}, {"--config=" + other}, {"sandbox", "--config", other, "--merchant"}} {
		_, stdout, _ = ts.runCmd(append([]string{"__complete-merchants"}, args...)...)
		assert.Equal(t, "7\n", stdout, args)
	}
	_, stdout, stderr := ts.runCmd("__complete-merchants", "--config", filepath.Join(t.TempDir(), "missing"))
	assert.Empty(t, stdout)
	assert.Empty(t, stderr)
}

// The fish script completes --merchant through the hidden command too (fish's complete -C runs a completion without a terminal).
func TestCompletionFishCompletesMerchants(t *testing.T) {
	fish, dir := completionBench(t, "fish")
	cmd := exec.Command(fish, "--no-config", "-c", `source $argv[1]; complete -C "paydash --merchant "; complete -C "paydash sandbox --pu"`, filepath.Join(dir, "c.fish"))
	cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, "1001\n1002\n--public\n", string(out))
}
