package approval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/money"
	"paydash/backend/safefile"
)

var t0 = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

// clock is an injected clock the test moves by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func rub(v string) money.Amount { return money.Amount{Value: money.MustParse(v), Currency: "RUB"} }

func refund(v string) action.Request {
	return action.New(backend.ActionRefund, "43149010", rub(v), backend.V2)
}

// open opens a store in a new directory with an injected clock.
func open(t *testing.T) (*Store, *clock, string) {
	t.Helper()
	c := &clock{now: t0}
	path := filepath.Join(t.TempDir(), "state", "approvals.jsonl")
	s, err := Open(path, Options{Now: c.Now})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s, c, path
}

func TestFileListClaimSettle(t *testing.T) {
	s, c, path := open(t)
	a := refund("5000")
	r, err := s.File(a, "anna", "SHA256:anna")
	require.NoError(t, err)
	assert.Equal(t, Waiting, r.State)
	assert.Equal(t, t0, r.Filed)
	assert.Equal(t, t0.Add(DefaultTTL), r.Expires)
	assert.Equal(t, a.ID, r.Action.ID, "the action ID is fixed when filed")
	assert.Equal(t, a.IdempotencyKey, r.Action.IdempotencyKey)
	assert.Equal(t, "anna", r.Action.Person)

	c.add(time.Minute)
	r2, err := s.File(refund("7000"), "vera", "SHA256:vera")
	require.NoError(t, err)
	list := s.List()
	require.Len(t, list, 2)
	assert.Equal(t, []string{r.ID, r2.ID}, []string{list[0].ID, list[1].ID}, "waiting: oldest first")

	c.add(time.Minute)
	got, err := s.Claim(r.ID, "boris", "SHA256:boris")
	require.NoError(t, err)
	assert.Equal(t, Approved, got.State)
	assert.Equal(t, "boris", got.Decider)
	assert.Equal(t, t0.Add(2*time.Minute), got.Decided)
	assert.Equal(t, "anna", got.Action.Person)
	assert.Equal(t, "boris", got.Action.Approver)
	assert.Equal(t, "SHA256:boris", got.Action.ApproverKey)
	assert.Equal(t, []string{r2.ID, r.ID}, ids(s.List()), "waiting first, then decided")
	assert.Equal(t, []string{r.ID}, ids(s.Unsettled()))

	require.NoError(t, s.Settle(r.ID, "Refund of 5,000.00 RUB: outcome unknown — checking", false))
	got, _ = s.Get(r.ID)
	assert.Equal(t, Approved, got.State, "not final: still approved")
	assert.Contains(t, got.Outcome, "outcome unknown")
	require.NoError(t, s.Settle(r.ID, "Refund 7000123 of 5,000.00 RUB made for payment 43149010 — Pending", true))
	got, _ = s.Get(r.ID)
	assert.Equal(t, Sent, got.State)
	assert.Empty(t, s.Unsettled())
	assert.ErrorIs(t, s.Settle(r.ID, "again", true), ErrNotClaimed)
	assert.ErrorIs(t, s.Settle(r2.ID, "not approved", true), ErrNotClaimed)
	assert.ErrorIs(t, s.Settle("nope", "x", true), ErrNotFound)

	_, err = s.Claim(r.ID, "galina", "SHA256:galina")
	require.ErrorIs(t, err, ErrNotWaiting)
	assert.Contains(t, err.Error(), "boris approved it")

	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	di, err := os.Stat(filepath.Dir(path))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), di.Mode().Perm())
}

func ids(rs []Request) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func TestFileRefusesWhatCouldNotBeSent(t *testing.T) {
	s, _, _ := open(t)
	noKey := refund("10")
	noKey.IdempotencyKey = ""
	_, err := s.File(noKey, "anna", "k")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "idempotency key")
	_, err = s.File(action.New(backend.ActionCapture, "", rub("10"), backend.V2), "anna", "k")
	assert.ErrorContains(t, err, "no payment")
	_, err = s.File(refund("10"), " ", "k")
	assert.ErrorContains(t, err, "who asks")
	assert.Empty(t, s.List(), "nothing refused is filed")
}

func TestTwoSupervisorsClaimingAtOnceOneWins(t *testing.T) {
	s, _, _ := open(t)
	for round := range 50 {
		r, err := s.File(refund("100"), "anna", "SHA256:anna")
		require.NoError(t, err)
		var (
			wg     sync.WaitGroup
			wins   atomic.Int32
			winner atomic.Value
			errs   = make([]error, 6)
		)
		for i := range errs {
			wg.Go(func() {
				who := fmt.Sprintf("sup-%d", i)
				if _, err := s.Claim(r.ID, who, "SHA256:"+who); err != nil {
					errs[i] = err
					return
				}
				wins.Add(1)
				winner.Store(who)
			})
		}
		wg.Wait()
		require.Equal(t, int32(1), wins.Load(), "round %d: exactly one claim succeeds", round)
		for _, err := range errs {
			if err != nil {
				assert.ErrorIs(t, err, ErrNotWaiting)
				assert.Contains(t, err.Error(), winner.Load().(string)+" approved it", "the loser learns who claimed it")
			}
		}
		got, _ := s.Get(r.ID)
		assert.Equal(t, winner.Load(), got.Decider)
	}
}

func TestOwnRequestIsRefusedButCanBeWithdrawn(t *testing.T) {
	s, _, _ := open(t)
	r, err := s.File(refund("100"), "anna", "SHA256:anna")
	require.NoError(t, err)
	_, err = s.Claim(r.ID, "anna", "SHA256:anna")
	assert.ErrorIs(t, err, ErrOwn)
	_, err = s.Claim(r.ID, "anna-2", "SHA256:anna")
	assert.ErrorIs(t, err, ErrOwn, "the same key under another name")
	_, err = s.Reject(r.ID, "anna", "SHA256:anna", "changed my mind")
	assert.ErrorIs(t, err, ErrOwn)
	_, err = s.Reject(r.ID, "boris", "SHA256:boris", "  ")
	assert.ErrorContains(t, err, "reason")
	_, err = s.Withdraw(r.ID, "boris", "SHA256:boris")
	assert.ErrorIs(t, err, ErrNotOwn)
	got, _ := s.Get(r.ID)
	require.Equal(t, Waiting, got.State, "nothing refused changed it")

	w, err := s.Withdraw(r.ID, "anna", "SHA256:anna")
	require.NoError(t, err)
	assert.Equal(t, Withdrawn, w.State)
	_, err = s.Claim(r.ID, "boris", "SHA256:boris")
	assert.ErrorIs(t, err, ErrNotWaiting)
	assert.Contains(t, err.Error(), "anna withdrew it")

	r2, err := s.File(refund("200"), "anna", "SHA256:anna")
	require.NoError(t, err)
	rej, err := s.Reject(r2.ID, "boris", "SHA256:boris", "the customer was refunded by bank transfer")
	require.NoError(t, err)
	assert.Equal(t, Rejected, rej.State)
	assert.Equal(t, "the customer was refunded by bank transfer", rej.Reason)
	_, err = s.Claim(r2.ID, "galina", "SHA256:galina")
	assert.ErrorContains(t, err, "boris rejected it")
}

func TestExpiryWithAnInjectedClock(t *testing.T) {
	s, c, _ := open(t)
	early, err := s.File(refund("100"), "anna", "a")
	require.NoError(t, err)
	c.add(30 * time.Minute)
	late, err := s.File(refund("200"), "anna", "a")
	require.NoError(t, err)

	c.add(29*time.Minute + 59*time.Second)
	assert.Empty(t, s.Expire(), "not yet")
	c.add(time.Second)
	_, err = s.Claim(early.ID, "boris", "b")
	require.ErrorIs(t, err, ErrExpired, "expired lazily in Claim")
	got, _ := s.Get(early.ID)
	assert.Equal(t, Expired, got.State)

	c.add(30 * time.Minute)
	expired := s.Expire()
	require.Len(t, expired, 1)
	assert.Equal(t, late.ID, expired[0].ID)
	assert.Equal(t, Expired, expired[0].State)
	assert.Empty(t, s.Expire(), "once")
	_, err = s.Claim(late.ID, "boris", "b")
	assert.ErrorContains(t, err, "expired")
}

func TestARestartKeepsEveryState(t *testing.T) {
	s, c, path := open(t)
	file := func(a action.Request) Request {
		r, err := s.File(a, "anna", "SHA256:anna")
		require.NoError(t, err)
		c.add(time.Second)
		return r
	}
	expired := file(refund("6")) // the first filed expires first
	inv := action.NewCreateInvoice(backend.InvoiceLinkRequest{MerchantID: "1001", Amount: rub("1500"), OrderNo: "A-17",
		Description: "a create's params survive"})
	approved := file(inv)
	sent := file(refund("3"))
	rejected := file(refund("4"))
	withdrawn := file(refund("5"))
	waiting := file(refund("1"))
	_, err := s.Claim(approved.ID, "boris", "SHA256:boris")
	require.NoError(t, err)
	require.NoError(t, s.Settle(approved.ID, "Payment link: outcome unknown — checking", false))
	_, err = s.Claim(sent.ID, "boris", "SHA256:boris")
	require.NoError(t, err)
	require.NoError(t, s.Settle(sent.ID, "Refund 1 made", true))
	_, err = s.Reject(rejected.ID, "boris", "SHA256:boris", "no")
	require.NoError(t, err)
	_, err = s.Withdraw(withdrawn.ID, "anna", "SHA256:anna")
	require.NoError(t, err)
	c.now = expired.Expires
	require.Len(t, s.Expire(), 1)
	before := s.List()
	require.NoError(t, s.Close())
	_, err = s.File(refund("7"), "anna", "a")
	assert.ErrorIs(t, err, ErrClosed)

	s2, err := Open(path, Options{Now: c.Now})
	require.NoError(t, err)
	defer s2.Close()
	assert.Empty(t, s2.Damaged())
	after := s2.List()
	require.Equal(t, len(before), len(after))
	for i := range before {
		assert.Equal(t, comparable(before[i]), comparable(after[i]), "request %d", i)
	}
	states := map[string]State{}
	for _, r := range after {
		states[r.ID] = r.State
	}
	assert.Equal(t, map[string]State{waiting.ID: Waiting, approved.ID: Approved, sent.ID: Sent, rejected.ID: Rejected,
		withdrawn.ID: Withdrawn, expired.ID: Expired}, states)
	un := s2.Unsettled()
	require.Len(t, un, 1, "the approved request never settled reads back as Approved")
	assert.Equal(t, approved.ID, un[0].ID)
	assert.Equal(t, "boris", un[0].Action.Approver)
	p := action.ParamsOf[backend.InvoiceLinkRequest](un[0].Action)
	assert.Equal(t, "a create's params survive", p.Description)
	assert.Equal(t, inv.IdempotencyKey, p.IdempotencyKey)
	assert.Equal(t, "1,500.00 RUB", un[0].Action.Amount.Display())
}

// comparable is r with its amount as text (a decimal read back may be
// another representation of the same value) and its action's params as
// they would be journaled.
func comparable(r Request) Request {
	r.Action = action.RequestOf(action.EntryOf(r.Action, phaseRequested))
	r.Action.Amount = money.Amount{Currency: r.Action.Amount.Display()}
	return r
}

func TestASecondServerCannotOpenIt(t *testing.T) {
	_, _, path := open(t)
	_, err := Open(path, Options{})
	assert.ErrorIs(t, err, ErrInUse)
}

func TestSymlinkAndFIFORefused(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere.jsonl")
	require.NoError(t, os.WriteFile(target, nil, 0o600))
	link := filepath.Join(dir, "link.jsonl")
	require.NoError(t, os.Symlink(target, link))
	_, err := Open(link, Options{})
	require.ErrorIs(t, err, safefile.ErrNotRegular)
	assert.Contains(t, err.Error(), "symbolic link")

	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	_, err = Open(fifo, Options{}) // must not block waiting for a writer
	require.ErrorIs(t, err, safefile.ErrNotRegular)
	assert.Contains(t, err.Error(), "named pipe")
}

func TestADamagedLineIsSkippedAndReported(t *testing.T) {
	s, _, path := open(t)
	r, err := s.File(refund("1"), "anna", "a")
	require.NoError(t, err)
	require.NoError(t, s.Close())
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("{not json\n" + `{"id":"x","state":"dancing","action":{"action":"refund"}}` + "\n" + `{"event":"filed","id":"torn`)
	require.NoError(t, err)
	require.NoError(t, f.Close())

	s2, err := Open(path, Options{})
	require.NoError(t, err)
	defer s2.Close()
	d := s2.Damaged()
	require.Len(t, d, 2, "the torn last line is a write cut short, not damage: %v", d)
	assert.Equal(t, 2, d[0].Line)
	assert.Equal(t, 3, d[1].Line)
	assert.Contains(t, d[1].Err, "dancing")
	assert.Equal(t, []string{r.ID}, ids(s2.List()))

	// The next line starts on a line of its own.
	r2, err := s2.File(refund("2"), "anna", "a")
	require.NoError(t, err)
	require.NoError(t, s2.Close())
	s3, err := Open(path, Options{})
	require.NoError(t, err)
	defer s3.Close()
	assert.Len(t, s3.Damaged(), 3, "the torn line, now ended, is damaged in the middle")
	_, ok := s3.Get(r2.ID)
	assert.True(t, ok)
}

func TestSubscribersGetEveryChange(t *testing.T) {
	s, _, _ := open(t)
	ch1, stop1 := s.Subscribe()
	ch2, stop2 := s.Subscribe()
	defer stop2()
	r, err := s.File(refund("1"), "anna", "a")
	require.NoError(t, err)
	_, err = s.Claim(r.ID, "boris", "b")
	require.NoError(t, err)
	require.NoError(t, s.Settle(r.ID, "done", true))
	for _, ch := range []<-chan Event{ch1, ch2} {
		var kinds []EventKind
		for range 3 {
			ev := <-ch
			assert.Equal(t, r.ID, ev.Request.ID)
			kinds = append(kinds, ev.Kind)
		}
		assert.Equal(t, []EventKind{EventFiled, EventClaimed, EventSettled}, kinds)
	}
	stop1()
	_, open := <-ch1
	assert.False(t, open, "stopped: closed")
	stop1() // twice is fine

	// A subscriber that never reads does not block the store, and keeps
	// the newest events.
	for i := range SubscriberBuffer + 10 {
		_, err := s.File(refund(fmt.Sprint(i+1)), "anna", "a")
		require.NoError(t, err)
	}
	require.Len(t, ch2, SubscriberBuffer)
	var last Event
	for range SubscriberBuffer {
		last = <-ch2
	}
	assert.Equal(t, fmt.Sprint(SubscriberBuffer+10)+".00 RUB", last.Request.Action.Amount.String(), "the newest is kept")
	require.NoError(t, s.Close())
	_, open = <-ch2
	assert.False(t, open, "Close ends every subscription")
}

// failing is the store's file whose next write stops after allow bytes
// with ENOSPC, as a write on a full disk does.
type failing struct {
	file
	allow int // -1: writes pass
}

func (f *failing) Write(p []byte) (int, error) {
	if f.allow < 0 {
		return f.file.Write(p)
	}
	n, _ := f.file.Write(p[:min(f.allow, len(p))])
	f.allow = -1
	return n, syscall.ENOSPC
}

func TestAFullDiskChangesNothing(t *testing.T) {
	s, _, path := open(t)
	r, err := s.File(refund("1"), "anna", "a")
	require.NoError(t, err)
	ff := &failing{file: s.f, allow: 20}
	s.f = ff
	events, stop := s.Subscribe()
	defer stop()

	_, err = s.Claim(r.ID, "boris", "b")
	require.ErrorIs(t, err, syscall.ENOSPC)
	got, _ := s.Get(r.ID)
	assert.Equal(t, Waiting, got.State, "the claim did not happen")
	assert.Empty(t, events, "nor was it told")

	ff.allow = 5
	_, err = s.File(refund("2"), "anna", "a")
	require.ErrorIs(t, err, syscall.ENOSPC)
	assert.Len(t, s.List(), 1)

	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(string(raw), "\n"), "the failed writes were cut away")
	assert.True(t, strings.HasSuffix(string(raw), "\n"))

	// Room again: the same claim goes through, and the file reads back whole.
	claimed, err := s.Claim(r.ID, "boris", "b")
	require.NoError(t, err)
	require.NoError(t, s.Close())
	s2, err := Open(path, Options{})
	require.NoError(t, err)
	defer s2.Close()
	assert.Empty(t, s2.Damaged())
	got, _ = s2.Get(r.ID)
	assert.Equal(t, Approved, got.State)
	assert.Equal(t, claimed.Decider, got.Decider)
}
