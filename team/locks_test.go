package team

import (
	"strconv"
	"sync"
	"testing"
)

func TestLocks(t *testing.T) {
	l := NewLocks()
	if h, ok := l.Claim("payment:1", "desk-1"); !ok || h != "desk-1" {
		t.Fatalf("Claim = %q, %v", h, ok)
	}
	if h, ok := l.Claim("payment:1", "desk-2"); ok || h != "desk-1" {
		t.Errorf("a second person's Claim = %q, %v; want desk-1, false", h, ok)
	}
	if h, ok := l.Claim("payment:1", "desk-1"); ok || h != "desk-1" {
		t.Errorf("the same person's second Claim = %q, %v; want desk-1, false", h, ok)
	}
	l.Release("payment:1", "desk-2") // not theirs: ignored
	if l.Holder("payment:1") != "desk-1" {
		t.Error("a release by someone else freed the object")
	}
	l.Release("payment:1", "desk-1")
	if _, ok := l.Claim("payment:1", "desk-2"); !ok {
		t.Error("a released object cannot be claimed")
	}
	l.Claim("refund:7", "desk-2")
	if n := l.ReleaseAll("desk-2"); n != 2 || l.Holder("refund:7") != "" {
		t.Errorf("ReleaseAll = %d", n)
	}
}

// TestLocksConcurrent: of many sessions claiming the same objects at
// once, exactly one wins each (run with -race).
func TestLocksConcurrent(t *testing.T) {
	l := NewLocks()
	const sessions, objects = 16, 50
	wins := make([][]int, sessions)
	var wg sync.WaitGroup
	for s := range sessions {
		wg.Go(func() {
			who := "desk-" + strconv.Itoa(s)
			for o := range objects {
				if h, ok := l.Claim("payment:"+strconv.Itoa(o), who); ok {
					wins[s] = append(wins[s], o)
				} else if h == "" || h == who {
					t.Errorf("refused %s with holder %q", who, h)
				}
			}
		})
	}
	wg.Wait()
	won := map[int]string{}
	for s, list := range wins {
		for _, o := range list {
			if other, twice := won[o]; twice {
				t.Errorf("object %d won by %s and desk-%d", o, other, s)
			}
			won[o] = "desk-" + strconv.Itoa(s)
		}
	}
	if len(won) != objects {
		t.Errorf("%d objects claimed, want %d", len(won), objects)
	}
	for o, who := range won {
		if h := l.Holder("payment:" + strconv.Itoa(o)); h != who {
			t.Errorf("payment:%d held by %q, want %q", o, h, who)
		}
	}
	var rel sync.WaitGroup
	for o, who := range won {
		rel.Go(func() { l.Release("payment:"+strconv.Itoa(o), who) })
	}
	rel.Wait()
	if _, ok := l.Claim("payment:0", "lead"); !ok {
		t.Error("payment:0 still held after every release")
	}
}
