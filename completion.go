package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"paydash/config"
)

// The completion scripts are generated from the flag sets themselves
// (config.FlagSet, newSandboxFlagSet), so a new flag is completed without
// anyone touching this file. --merchant is completed at completion time by
// the hidden command paydash __complete-merchants, which reads the config
// file then: a script is generated once into a completions folder, while
// the merchants in the config file change (docs/cli.md).

// complFlag is a flag as the scripts see it: its name and what its
// argument is ("" for a switch, "PATH" for a file, "ID" for a merchant).
type complFlag struct{ name, arg string }

// dash is the flag as written: --name, or -v for a one-letter one.
func (f complFlag) dash() string {
	if len(f.name) == 1 {
		return "-" + f.name
	}
	return "--" + f.name
}

// complCommand is what can follow a command: its flags and its words.
type complCommand struct {
	name  string // "" for paydash itself
	flags []complFlag
	words []string
}

// completionShells are the shells paydash completion writes for.
var completionShells = []string{"bash", "zsh", "fish"}

func flagsOf(fs *flag.FlagSet) []complFlag {
	var out []complFlag
	fs.VisitAll(func(f *flag.Flag) {
		arg, _ := flag.UnquoteUsage(f)
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			arg = ""
		}
		out = append(out, complFlag{name: f.Name, arg: arg})
	})
	return out
}

// completionModel is every command with its flags and words.
func completionModel() []complCommand {
	dashboard := flagsOf(config.FlagSet())
	sandboxSet, _ := newSandboxFlagSet()
	return []complCommand{
		{name: "", flags: dashboard, words: []string{"sandbox", "version", "paths", "completion"}},
		{name: "sandbox", flags: flagsOf(sandboxSet)},
		{name: "version"},
		{name: "paths", flags: dashboard},
		{name: "completion", words: completionShells},
	}
}

// runCompletion is paydash completion bash|zsh|fish.
func runCompletion(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintf(stderr, "paydash completion: give one shell: %s\n", strings.Join(completionShells, ", "))
		return 2
	}
	model := completionModel()
	switch args[0] {
	case "bash":
		io.WriteString(stdout, bashCompletion(model))
	case "zsh":
		io.WriteString(stdout, zshCompletion(model))
	case "fish":
		io.WriteString(stdout, fishCompletion(model))
	default:
		fmt.Fprintf(stderr, "paydash completion: no completion for %q; give one of %s\n", args[0], strings.Join(completionShells, ", "))
		return 2
	}
	return 0
}

// runCompleteMerchants is the hidden paydash __complete-merchants: the
// config file's merchant ids, one a line, of the --config among args (the
// words typed so far) or the default one. Errors print nothing: a
// completion has nowhere to say them.
func runCompleteMerchants(args []string, stdout io.Writer, sys config.System) int {
	path := ""
	for i, a := range args {
		switch {
		case (a == "--config" || a == "-config") && i+1 < len(args):
			path = args[i+1]
		case strings.HasPrefix(a, "--config="), strings.HasPrefix(a, "-config="):
			path = a[strings.Index(a, "=")+1:]
		}
	}
	ids, _ := config.FileMerchants(path, sys)
	for _, id := range ids {
		fmt.Fprintln(stdout, id)
	}
	return 0
}

// argFlags are the flags of the model taking an argument, as written, by
// what the argument is: "PATH", "ID", and "" for any other.
func argFlags(model []complCommand) map[string][]string {
	seen := map[string]bool{}
	out := map[string][]string{}
	for _, c := range model {
		for _, f := range c.flags {
			if f.arg == "" || seen[f.dash()] {
				continue
			}
			seen[f.dash()] = true
			kind := f.arg
			if kind != "PATH" && kind != "ID" {
				kind = ""
			}
			out[kind] = append(out[kind], f.dash())
		}
	}
	return out
}

// offers is what follows a command: its words, then its flags as written.
func (c complCommand) offers() []string {
	out := append([]string(nil), c.words...)
	for _, f := range c.flags {
		out = append(out, f.dash())
	}
	return out
}
