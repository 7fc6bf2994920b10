package team

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"paydash/backend/money"
)

const goodFile = `# the desk
[[person]]
name  = "desk-1"
role  = "support"
keys  = ["K1 desk-1"]
[person.limits]
RUB = "10000"
"*" = "100"

[[person]]
name = "lead"
role = "supervisor"
keys = ["K2", "K3 laptop"]

[[person]]
name = "auditor"
role = "viewer"
keys = []
`

func TestParseGood(t *testing.T) {
	p, err := Parse("people.toml", file(t, strings.Replace(goodFile, "keys = []", `keys = ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ0N+KkjRLwLL0bHbxmpnQCfRmKvEkUVYQ3JTd9bAKY3"]`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Names(); !slices.Equal(got, []string{"desk-1", "lead", "auditor"}) {
		t.Fatalf("Names = %v", got)
	}
	desk, ok := p.ByName("desk-1")
	if !ok || desk.Role != Support || desk.Line != 2 || len(desk.Keys) != 1 {
		t.Fatalf("desk-1 = %+v, %v", desk, ok)
	}
	if desk.Limits["RUB"] != money.MustParse("10000") || desk.Limits["*"] != money.MustParse("100") {
		t.Errorf("limits = %v", desk.Limits)
	}
	k3, _ := testKey(t, 3)
	if who, ok := p.ByKey(k3); !ok || who.Name != "lead" {
		t.Errorf("ByKey(K3) = %q, %v; want lead", who.Name, ok)
	}
	k9, _ := testKey(t, 9)
	if _, ok := p.ByKey(k9); ok {
		t.Error("ByKey of a key nobody has found someone")
	}
	if _, ok := p.ByName("Desk-1"); ok {
		t.Error("ByName is not exact")
	}
	if !strings.HasPrefix(Fingerprint(k3), "SHA256:") {
		t.Errorf("Fingerprint = %q", Fingerprint(k3))
	}
	if len(p.Warnings) != 0 {
		t.Errorf("warnings: %v", p.Warnings)
	}
}

// TestParseErrors: every fault of the file, with its line (and column),
// in the exact words a person reads.
func TestParseErrors(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"typo", "[[person]]\nname = \"a\"\nrol = \"support\"\nkeys = [\"K1\"]\n",
			`people.toml: line 1, column 3: "a" has no role: add role = "viewer", "support" or "supervisor"
people.toml: line 3, column 1: unknown key "rol" in [[person]] (did you mean "role"?) (the keys are name, role, keys and limits)`},
		{"no name", "[[person]]\nrole = \"viewer\"\nkeys = [\"K1\"]\n",
			`people.toml: line 1, column 3: this person has no name: add name = "…", the name the journal and the other sessions show`},
		{"no keys", "[[person]]\nname = \"a\"\nrole = \"viewer\"\n",
			`people.toml: line 1, column 3: "a" has no keys: add keys = ["ssh-ed25519 AAAA… a"], lines of the person's authorized_keys (their ~/.ssh/id_ed25519.pub)`},
		{"bad role", "[[person]]\nname = \"a\"\nrole = \"boss\"\nkeys = [\"K1\"]\n",
			`people.toml: line 3, column 8: "boss" is not a role: the roles are "viewer", "support" and "supervisor"`},
		{"bad key", "[[person]]\nname = \"a\"\nrole = \"viewer\"\nkeys = [\n  \"K1\",\n  \"ssh-ed25519 AAAAnope a\",\n]\n",
			`people.toml: line 6, column 3: key 2 of "a" is not an authorized_keys line such as "ssh-ed25519 AAAAC3Nza… desk-1" (no key found)`},
		{"key options", "[[person]]\nname = \"a\"\nrole = \"viewer\"\nkeys = ['from=\"10.0.0.1\" K1']\n",
			`people.toml: line 4, column 9: key 1 of "a" has options (from="10.0.0.1") that paydash does not apply: give the key type, the key and a comment only`},
		{"same name", "[[person]]\nname = \"a\"\nrole = \"viewer\"\nkeys = [\"K1\"]\n\n[[person]]\nname = \"a\"\nrole = \"viewer\"\nkeys = [\"K2\"]\n",
			`people.toml: line 7, column 8: the name "a" is taken by the person on line 1: each person needs a name of their own`},
		{"same key", "[[person]]\nname = \"a\"\nrole = \"viewer\"\nkeys = [\"K1 a\"]\n\n[[person]]\nname = \"b\"\nrole = \"viewer\"\nkeys = [\"K1 b\"]\n",
			`people.toml: line 9, column 9: key 1 of "b" (FP1) is also given to "a", on line 4: a key names one person`},
		{"spaced limit", "[[person]]\nname = \"a\"\nrole = \"support\"\nkeys = [\"K1\"]\n[person.limits]\nRUB = \"10 000\"\n",
			`people.toml: line 6, column 7: the limit for RUB "10 000" has a space in it: write the amount without spaces, like "10000"`},
		{"comma limit", "[[person]]\nname = \"a\"\nrole = \"support\"\nkeys = [\"K1\"]\nlimits = { RUB = \"10,5\" }\n",
			`people.toml: line 5, column 18: the limit for RUB "10,5" has a comma: write the amount with no thousands separator and a point before the decimals, like "10000.50"`},
		{"negative limit", "[[person]]\nname = \"a\"\nrole = \"support\"\nkeys = [\"K1\"]\n[person.limits]\nUSD = -5\n",
			`people.toml: line 6, column 7: the limit for USD "-5" is below zero: write 0 to have every amount approved`},
		{"word limit", "[[person]]\nname = \"a\"\nrole = \"support\"\nkeys = [\"K1\"]\n[person.limits]\nUSD = \"lots\"\n",
			`people.toml: line 6, column 7: the limit for USD "lots" is not an amount: write it like "10000" or "10000.50"`},
		{"bad currency", "[[person]]\nname = \"a\"\nrole = \"support\"\nkeys = [\"K1\"]\n[person.limits]\nrubles = \"1\"\n",
			`people.toml: line 6, column 1: "rubles" is not a currency: write a three-letter code such as RUB, or "*" for any other currency`},
		{"not toml", "[[person]]\nname = \"a\nrole = \"viewer\"\n",
			`people.toml: line 2, column 10: this is not TOML: basic strings cannot have new lines`},
		{"single brackets", "[person]\nname = \"a\"\n",
			`people.toml: line 1, column 2: person must be written [[person]], with two brackets, once for each person`},
		{"top-level key", "title = \"x\"\n[[person]]\nname = \"a\"\nrole = \"viewer\"\nkeys = [\"K1\"]\n",
			`people.toml: line 1, column 1: unknown key "title": the file holds [[person]] tables only`},
		{"empty", "# nobody yet\n", `people.toml: no [[person]] in the file: nobody could connect`},
	}
	k1, _ := testKey(t, 1)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("people.toml", file(t, c.text))
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a *FileError", err)
			}
			want := strings.ReplaceAll(c.want, "FP1", Fingerprint(k1))
			if err.Error() != want {
				t.Errorf("got\n%s\nwant\n%s", err, want)
			}
		})
	}
}

func TestParseWarnsOfUnusedLimits(t *testing.T) {
	p, err := Parse("people.toml", file(t, "[[person]]\nname = \"lead\"\nrole = \"supervisor\"\nkeys = [\"K1\"]\n[person.limits]\nRUB = 5\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`people.toml: line 5: the limits of "lead" are not used: only support people have limits ("lead" is a supervisor)`}
	if !slices.Equal(p.Warnings, want) {
		t.Errorf("warnings = %q, want %q", p.Warnings, want)
	}
}

func TestLoadRefusesAFIFOWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "people.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	_, err := Load(fifo)
	if err == nil || err.Error() != fifo+": is a named pipe (FIFO), not a regular file" {
		t.Errorf("err = %v", err)
	}
	_, err = Load(filepath.Join(dir, "missing.toml"))
	if err == nil || err.Error() != filepath.Join(dir, "missing.toml")+": no such file" {
		t.Errorf("err = %v", err)
	}
}

func TestLoadReadsAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "people.toml")
	if err := os.WriteFile(path, file(t, "[[person]]\nname = \"a\"\nrole = \"viewer\"\nkeys = [\"K1\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Load(path)
	if err != nil || !slices.Equal(p.Names(), []string{"a"}) {
		t.Fatalf("Load = %v, %v", p, err)
	}
}

// TestParseLenient: what the file may leave out or write freely.
func TestParseLenient(t *testing.T) {
	p, err := Parse("people.toml", file(t, "[[person]]\nname = \"new\"\nrole = \"Support\"\nkeys = [\"K1\"]\n"+
		"[[person]]\nname = \"desk\"\nrole = \"support\"\nkeys = [\"K2\"]\nlimits = { rub = 10_000, KZT = \"0\", \"*\" = 99.5 }\n"))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := p.ByName("new"); n.Role != Support || len(n.Limits) != 0 {
		t.Errorf("a support person without limits: %+v", n)
	}
	d, _ := p.ByName("desk")
	want := map[string]money.Decimal{"RUB": money.MustParse("10000"), "KZT": 0, "*": money.MustParse("99.5")}
	if len(d.Limits) != 3 || d.Limits["RUB"] != want["RUB"] || d.Limits["*"] != want["*"] || d.Limits["KZT"] != 0 {
		t.Errorf("limits = %v, want %v", d.Limits, want)
	}
	_, err = Parse("people.toml", file(t, "[[person]]\nname = \"a\"\nrole = \"support\"\nkeys = [\"K1\"]\n[person.limits]\nRUB = 1\nrub = 2\n"))
	if err == nil || err.Error() != `people.toml: line 7, column 1: the limit for RUB is given twice (as "RUB" and "rub")` {
		t.Errorf("err = %v", err)
	}
}
