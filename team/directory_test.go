package team

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const before = `[[person]]
name = "desk-1"
role = "support"
keys = ["K1"]
[person.limits]
RUB = "10000"

[[person]]
name = "desk-2"
role = "support"
keys = ["K2"]

[[person]]
name = "auditor"
role = "viewer"
keys = ["K3"]
`

// after: desk-1's limit raised, desk-2 gone, auditor's key unchanged, a
// new lead with desk-2's key.
const after = `[[person]]
name = "desk-1"
role = "support"
keys = ["K1"]
limits = { RUB = "20000" }
[[person]]
name = "auditor"
keys = ["K3 the same key, another comment"]
role = "viewer"
[[person]]
name = "lead"
keys = ["K2"]
role = "supervisor"
`

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, file(t, text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDirectoryReload(t *testing.T) {
	path := filepath.Join(t.TempDir(), "people.toml")
	writeFile(t, path, before)
	p, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDirectory(p)
	ch, stop := d.Subscribe()
	defer stop()

	writeFile(t, path, after)
	c, err := d.Reload(path)
	if err != nil {
		t.Fatal(err)
	}
	want := Changes{Removed: []string{"desk-2"}, Changed: []string{"desk-1"}, Added: []string{"lead"}}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("Changes = %+v, want %+v", c, want)
	}
	if got := <-ch; !reflect.DeepEqual(got, want) {
		t.Errorf("subscriber got %+v, want %+v", got, want)
	}
	k2, _ := testKey(t, 2)
	if who, _ := d.Current().ByKey(k2); who.Name != "lead" {
		t.Errorf("K2 is now %q's, want lead's", who.Name)
	}

	// A bad file: the error names the line, the people stay.
	writeFile(t, path, strings.Replace(after, `role = "supervisor"`, `role = "boss"`, 1))
	cur := d.Current()
	_, err = d.Reload(path)
	var fe *FileError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "line 13, column 8: \"boss\" is not a role") {
		t.Fatalf("err = %v", err)
	}
	if d.Current() != cur {
		t.Error("a bad reload replaced the people")
	}
	select {
	case c := <-ch:
		t.Errorf("a bad reload told the subscriber %+v", c)
	default:
	}
}

// TestSubscriberCoalesces: reloads a subscriber has not read yet are
// merged into one Changes from what it last read, so nobody removed is
// missed and Reload never waits for a reader.
func TestSubscriberCoalesces(t *testing.T) {
	parse := func(text string) *People {
		p, err := Parse("people.toml", file(t, text))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	d := NewDirectory(parse(before))
	ch, stop := d.Subscribe()
	d.Swap(parse(after))                                              // desk-2 removed, lead added…
	d.Swap(parse(strings.Replace(after, "lead", "boss", 1)))          // …lead renamed boss
	d.Swap(parse(strings.Replace(after, `"20000"`, `"10000.00"`, 1))) // desk-1 back as before, boss back to lead
	want := Changes{Removed: []string{"desk-2"}, Added: []string{"lead"}}
	if got := <-ch; !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	stop()
	d.Swap(parse(before))
	select {
	case c := <-ch:
		t.Errorf("a stopped subscription got %+v", c)
	default:
	}
	if got := Diff(nil, parse(before)); !slices.Equal(got.Added, []string{"desk-1", "desk-2", "auditor"}) {
		t.Errorf("Diff(nil, …) = %+v", got)
	}
}
