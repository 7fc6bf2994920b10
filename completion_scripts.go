package main

import (
	"fmt"
	"strings"
)

// The three scripts share one shape: find the subcommand typed (the first
// word that is one), complete the argument of the flag just before the
// word (a file for PATH, the config file's merchants for ID, nothing for
// the others), else offer the subcommand's words and flags.

// subcommands are the model's commands but paydash itself.
func subcommands(model []complCommand) []string {
	var out []string
	for _, c := range model[1:] {
		out = append(out, c.name)
	}
	return out
}

// pattern is a case pattern matching any of words; one that matches no
// word typed when there are none, so that the script stays valid.
func pattern(words []string) string {
	if len(words) == 0 {
		return "__paydash_none__"
	}
	return strings.Join(words, "|")
}

// shDialect is what bash and zsh write differently in the one shape of
// shCompletion.
type shDialect struct {
	header, locals string
	word, first    string // the words typed as an array element of i; the first after paydash
	loopEnd, prev  string // the index of the word completed; the word before it
	merchants      string // the completion of the merchants
	files, none    string // of a file; of nothing
	offer          string // of the words %s (a format)
	footer         string
}

var bashDialect = shDialect{
	header: "# bash completion for paydash: source <(paydash completion bash)\n",
	locals: `local cur="${COMP_WORDS[COMP_CWORD]}" cmd="" i words`,
	word:   `${COMP_WORDS[i]}`, first: "1", loopEnd: "COMP_CWORD", prev: `${COMP_WORDS[COMP_CWORD-1]}`,
	merchants: `COMPREPLY=($(compgen -W "$(paydash __complete-merchants "${COMP_WORDS[@]:1:COMP_CWORD-1}" 2>/dev/null)" -- "$cur"))`,
	files:     `COMPREPLY=($(compgen -f -- "$cur"))`, none: "COMPREPLY=()",
	offer:  `words=%q; COMPREPLY=($(compgen -W "$words" -- "$cur"))`,
	footer: "complete -o default -F _paydash paydash\n",
}

var zshDialect = shDialect{
	header: "#compdef paydash\n# zsh completion for paydash: paydash completion zsh > \"${fpath[1]}/_paydash\"\n",
	locals: `local cmd="" i`,
	word:   `${words[i]}`, first: "2", loopEnd: "CURRENT", prev: `${words[CURRENT-1]}`,
	merchants: `compadd -- ${(f)"$(paydash __complete-merchants "${(@)words[2,CURRENT-1]}" 2>/dev/null)"}`,
	files:     "_files", none: ":",
	offer:  "compadd -- %s",
	footer: "if [ \"$funcstack[1]\" = \"_paydash\" ]; then\n    _paydash \"$@\"\nelse\n    compdef _paydash paydash\nfi\n",
}

func bashCompletion(model []complCommand) string { return shCompletion(model, bashDialect) }
func zshCompletion(model []complCommand) string  { return shCompletion(model, zshDialect) }

// shCompletion is the bash or zsh script: one function, _paydash.
func shCompletion(model []complCommand, d shDialect) string {
	args := argFlags(model)
	var b strings.Builder
	fmt.Fprintf(&b, "%s_paydash() {\n    %s\n", d.header, d.locals)
	fmt.Fprintf(&b, "    for ((i = %s; i < %s; i++)); do\n        case \"%s\" in\n", d.first, d.loopEnd, d.word)
	fmt.Fprintf(&b, "        %s) cmd=\"%s\"; break ;;\n        esac\n    done\n", strings.Join(subcommands(model), "|"), d.word)
	fmt.Fprintf(&b, "    case \"%s\" in\n", d.prev)
	for _, arm := range [][2]string{{pattern(args["ID"]), d.merchants}, {pattern(args["PATH"]), d.files}, {pattern(args[""]), d.none}} {
		fmt.Fprintf(&b, "    %s)\n        %s\n        return ;;\n", arm[0], arm[1])
	}
	b.WriteString("    esac\n    case \"$cmd\" in\n")
	for _, c := range model {
		offers := strings.Join(c.offers(), " ") // flags and names hold no blank
		fmt.Fprintf(&b, "    %q) "+d.offer+" ;;\n", c.name, offers)
	}
	b.WriteString("    esac\n}\n" + d.footer)
	return b.String()
}

func fishCompletion(model []complCommand) string {
	subs := strings.Join(subcommands(model), " ")
	var b strings.Builder
	b.WriteString("# fish completion for paydash: paydash completion fish > ~/.config/fish/completions/paydash.fish\n")
	b.WriteString("function __paydash_merchants\n    paydash __complete-merchants (commandline -opc)[2..-1] 2>/dev/null\nend\n")
	b.WriteString("complete -c paydash -f\n")
	for _, c := range model {
		cond := "not __fish_seen_subcommand_from " + subs
		if c.name != "" {
			cond = "__fish_seen_subcommand_from " + c.name
		}
		if c.name == "" {
			fmt.Fprintf(&b, "complete -c paydash -n '%s' -a '%s'\n", cond, subs)
		} else if len(c.words) > 0 {
			fmt.Fprintf(&b, "complete -c paydash -n '%s' -a '%s'\n", cond, strings.Join(c.words, " "))
		}
		for _, f := range c.flags {
			opt := "-l " + f.name
			if len(f.name) == 1 {
				opt = "-o " + f.name
			}
			switch f.arg {
			case "":
			case "PATH":
				opt += " -r -F"
			case "ID":
				opt += " -x -a '(__paydash_merchants)'"
			default:
				opt += " -x"
			}
			fmt.Fprintf(&b, "complete -c paydash -n '%s' %s\n", cond, opt)
		}
	}
	return b.String()
}
