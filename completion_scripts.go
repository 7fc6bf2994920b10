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

func bashCompletion(model []complCommand) string {
	args := argFlags(model)
	var b strings.Builder
	b.WriteString("# bash completion for paydash: source <(paydash completion bash)\n")
	b.WriteString("_paydash() {\n")
	b.WriteString("    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" cmd=\"\" i\n")
	fmt.Fprintf(&b, "    for ((i = 1; i < COMP_CWORD; i++)); do\n        case \"${COMP_WORDS[i]}\" in\n")
	fmt.Fprintf(&b, "        %s) cmd=\"${COMP_WORDS[i]}\"; break ;;\n        esac\n    done\n", strings.Join(subcommands(model), "|"))
	b.WriteString("    case \"$prev\" in\n")
	fmt.Fprintf(&b, "    %s)\n        COMPREPLY=($(compgen -W \"$(paydash __complete-merchants \"${COMP_WORDS[@]:1:COMP_CWORD-1}\" 2>/dev/null)\" -- \"$cur\"))\n        return ;;\n", pattern(args["ID"]))
	fmt.Fprintf(&b, "    %s)\n        COMPREPLY=($(compgen -f -- \"$cur\"))\n        return ;;\n", pattern(args["PATH"]))
	fmt.Fprintf(&b, "    %s)\n        COMPREPLY=()\n        return ;;\n    esac\n", pattern(args[""]))
	b.WriteString("    local words\n    case \"$cmd\" in\n")
	for _, c := range model {
		fmt.Fprintf(&b, "    %q) words=%q ;;\n", c.name, strings.Join(c.offers(), " "))
	}
	b.WriteString("    esac\n    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n}\n")
	b.WriteString("complete -o default -F _paydash paydash\n")
	return b.String()
}

func zshCompletion(model []complCommand) string {
	args := argFlags(model)
	var b strings.Builder
	b.WriteString("#compdef paydash\n# zsh completion for paydash: paydash completion zsh > \"${fpath[1]}/_paydash\"\n")
	b.WriteString("_paydash() {\n    local cmd=\"\" i\n")
	fmt.Fprintf(&b, "    for ((i = 2; i < CURRENT; i++)); do\n        case \"${words[i]}\" in\n")
	fmt.Fprintf(&b, "        %s) cmd=\"${words[i]}\"; break ;;\n        esac\n    done\n", strings.Join(subcommands(model), "|"))
	b.WriteString("    case \"${words[CURRENT-1]}\" in\n")
	fmt.Fprintf(&b, "    %s)\n        compadd -- ${(f)\"$(paydash __complete-merchants \"${(@)words[2,CURRENT-1]}\" 2>/dev/null)\"}\n        return ;;\n", pattern(args["ID"]))
	fmt.Fprintf(&b, "    %s)\n        _files\n        return ;;\n", pattern(args["PATH"]))
	fmt.Fprintf(&b, "    %s)\n        return ;;\n    esac\n", pattern(args[""]))
	b.WriteString("    case \"$cmd\" in\n")
	for _, c := range model {
		fmt.Fprintf(&b, "    %q) compadd -- %s ;;\n", c.name, strings.Join(c.offers(), " "))
	}
	b.WriteString("    esac\n}\n")
	b.WriteString("if [ \"$funcstack[1]\" = \"_paydash\" ]; then\n    _paydash \"$@\"\nelse\n    compdef _paydash paydash\nfi\n")
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
