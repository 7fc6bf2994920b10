package main

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/sandbox"
	v2 "paydash/backend/v2"
)

// The first end-to-end test: the built binary, in a pseudo-terminal of
// 120x40, against `paydash sandbox` in another process, captures a held
// payment and refunds part of a settled one by keyboard as a user would;
// the sandbox's state and the journal are checked afterwards.

const (
	e2eCols, e2eRows = 120, 40
	e2eWait          = 15 * time.Second // for one screen; the whole test takes a few seconds
	modalGuard       = 400 * time.Millisecond
)

// pauseForGuard waits out the confirmation dialog's guard (ui/confirm_guard.go:
// a key less than modalGuard after the one before it is ignored), with a
// margin for a loaded machine. The binary runs on the real clock, so this
// is the one real wait of the end-to-end tests; a test that then asserts
// that a key was taken sees it fail if the guard ignored it.
func pauseForGuard() { time.Sleep(modalGuard + 200*time.Millisecond) }

func TestEndToEndCaptureAndPartialRefundInATerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it in a pseudo-terminal")
	}
	if runtime.GOOS == "windows" {
		t.Skip("needs a Unix pseudo-terminal")
	}
	start := time.Now()
	dir := t.TempDir()
	bin := buildPaydash(t, dir)
	info := startSandboxProcess(t, bin, dir)
	ctx := context.Background()

	pem, err := os.ReadFile(info.CAFile)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(pem))
	api, err := v2.NewClient(info.BaseURL, info.V2Token, v2.WithRootCAs(pool))
	require.NoError(t, err)

	merchant := info.MerchantIDs[0]
	held := findOrMakePayment(t, api, merchant, v2.PaymentStatusAuthorized)
	settled := findOrMakePayment(t, api, merchant, v2.PaymentStatusSettled)
	t.Logf("held payment %s (%s), settled payment %s (%s)", held.ID, held.Amount, settled.ID, settled.Amount)
	before := refundsOf(t, api, merchant, settled.ID)
	partial := money.Amount{Value: money.MustParse("1"), Currency: settled.Amount.Currency}

	var accountant sandbox.V1User
	for _, u := range info.V1Users {
		if u.Role == sandbox.RoleAccountant {
			accountant = u
		}
	}
	journalPath := filepath.Join(dir, "state", "journal.jsonl")
	logPath := filepath.Join(dir, "requests.log")
	term := startInTerminal(t, bin, []string{
		"--base-url", info.BaseURL, "--ca-file", info.CAFile, "--merchant", merchant,
		"--journal", journalPath, "--log", logPath,
	}, []string{
		"PAYDASH_V2_TOKEN=" + info.V2Token,
		"PAYDASH_V1_LOGIN=" + accountant.Login,
		"PAYDASH_V1_PASSWORD=" + accountant.Password,
	}, dir)

	term.waitFor(t, "the payments list", func(s string) bool {
		return strings.Contains(s, "Payments") && strings.Contains(s, merchant)
	})

	// Capture the held payment: jump to it, c, wait out the guard, y.
	term.send(t, ":"+held.ID+"\r")
	term.waitFor(t, "the held payment's detail", func(s string) bool {
		return strings.Contains(s, "Payment "+held.ID) && strings.Contains(s, "Authorized")
	})
	term.settle()
	term.send(t, "c")
	// The confirmation itself (its buttons), not the "preparing" dialog
	// of the same title: the guard starts when the confirmation opens.
	term.waitFor(t, "the capture confirmation", func(s string) bool {
		return strings.Contains(s, "Capture payment "+held.ID) && buttonRE.MatchString(s)
	})
	pauseForGuard()
	term.send(t, "y")
	waitForService(t, term, "the held payment to be captured", func() (bool, string) {
		p, _, err := api.Payments.Get(ctx, held.ID)
		if err != nil {
			return false, err.Error()
		}
		return p.Status == v2.PaymentStatusSettled, string(p.Status)
	})

	// Refund part of the settled payment: jump, R, edit the amount, y.
	term.settle()
	term.send(t, ":"+settled.ID+"\r")
	term.waitFor(t, "the settled payment's detail", func(s string) bool {
		return strings.Contains(s, "Payment "+settled.ID) && strings.Contains(s, "Settled") && !strings.Contains(s, "Capture payment")
	})
	term.settle()
	term.send(t, "R")
	term.waitFor(t, "the refund confirmation", func(s string) bool {
		return strings.Contains(s, "Refund payment "+settled.ID) && buttonRE.MatchString(s)
	})
	pauseForGuard()
	term.send(t, "e")
	term.settle()
	term.send(t, strings.Repeat("\x7f", 24)+partial.Value.String())
	term.settle()
	term.send(t, "\r")
	term.settle()
	pauseForGuard() // y confirms only what stood still for the guard
	term.send(t, "y")
	var refund v2.Refund
	waitForService(t, term, "one new refund of "+partial.String(), func() (bool, string) {
		after := refundsOf(t, api, merchant, settled.ID)
		added := newRefunds(before, after)
		if len(added) == 1 {
			refund = added[0]
		}
		return len(added) >= 1, fmt.Sprintf("%d new refunds", len(added))
	})
	assert.Equal(t, partial.Value, refund.Amount.Value, "the refund is of the amount typed: %s", refund.Amount)
	assert.Equal(t, partial.Currency, refund.Amount.Currency)

	// Quit.
	term.settle()
	term.send(t, "q")
	code := term.wait(t, 10*time.Second)
	assert.Equal(t, 0, code, "paydash exits 0 on q; the screen:\n%s\nthe last output:\n%s", term.vt.Screen(), term.tailIf(code != 0))

	// The service's state, read again after the dashboard is gone.
	p, _, err := api.Payments.Get(ctx, held.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusSettled, p.Status, "the held payment was captured")
	assert.Equal(t, held.Amount.Value, p.Amount.Value, "captured in full, as prefilled: %s", p.Amount)
	added := newRefunds(before, refundsOf(t, api, merchant, settled.ID))
	require.Len(t, added, 1, "exactly one new refund: nothing was sent twice")
	assert.Equal(t, partial.Value, added[0].Amount.Value)

	// The journal holds both actions, sent before done.
	entries, err := journal.Read(journalPath)
	require.NoError(t, err)
	assertJournaled(t, entries, "capture", held.ID, "", nil)
	assertJournaled(t, entries, "refund", settled.ID, refund.ID, &partial)

	// The request log has the requests and none of the secrets.
	logText, err := os.ReadFile(logPath)
	require.NoError(t, err)
	assert.Contains(t, string(logText), "v2 request")
	assert.NotContains(t, string(logText), info.V2Token)
	assert.NotContains(t, string(logText), accountant.Password)

	t.Logf("end to end in %s", time.Since(start).Round(time.Millisecond))
}

// TestEndToEndEmbeddedSandbox is `make run`: paydash with no base URL opens
// on the sandbox it starts inside itself, with both interfaces.
func TestEndToEndEmbeddedSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it in a pseudo-terminal")
	}
	if runtime.GOOS == "windows" {
		t.Skip("needs a Unix pseudo-terminal")
	}
	dir := t.TempDir()
	bin := buildPaydash(t, dir)
	launched := time.Now()
	term := startInTerminal(t, bin, nil, nil, dir)
	screen := term.waitFor(t, "the first screen with data", func(s string) bool {
		return strings.Contains(s, "sandbox") && strings.Contains(s, "v2+v1") && strings.Contains(s, "RUB")
	})
	t.Logf("first screen with data %s after launch (100,000 payments seeded%s)",
		time.Since(launched).Round(time.Millisecond), map[bool]string{true: ", built with -race"}[raceEnabled])
	assert.Contains(t, screen, "Payments")
	assert.True(t, term.vt.AltScreen())

	// SIGTERM ends it cleanly, leaving the terminal as it was.
	term.settle()
	require.NoError(t, term.cmd.Process.Signal(syscall.SIGTERM))
	stopping := time.Now()
	code := term.wait(t, 10*time.Second)
	assert.Equal(t, 0, code, "exit status; the last output:\n%s", term.tailIf(code != 0))
	t.Logf("stopped %s after SIGTERM", time.Since(stopping).Round(time.Millisecond))
	assert.Eventually(t, func() bool { return !term.vt.AltScreen() }, e2eWait, 10*time.Millisecond,
		"the alternate screen is left on exit (the last output may still be in the pty)")
	_, err := os.Stat(filepath.Join(dir, "home", ".local", "state", "paydash", "sandbox-journal.jsonl"))
	assert.NoError(t, err, "the sandbox's journal is opened in XDG_STATE_HOME")
}

// buildPaydash builds the binary once for the package's tests, as the test
// itself was built (with -race when the test runs with it), so that the
// build cache already holds every package and only main is compiled.
func buildPaydash(t *testing.T, _ string) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "paydash-e2e-")
		if err != nil {
			built.err = err
			return
		}
		built.dir = dir
		// go test puts its own GOROOT/bin first on the test's PATH, so
		// this is the go command running the test, with its build cache.
		goTool, err := exec.LookPath("go")
		if err != nil {
			built.err = fmt.Errorf("finding the go command to build paydash: %v", err)
			return
		}
		bin := filepath.Join(dir, "paydash")
		args := []string{"build", "-o", bin}
		if raceEnabled {
			args = append(args, "-race")
		}
		out, err := exec.Command(goTool, append(args, ".")...).CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		built.bin = bin
	})
	require.NoError(t, built.err)
	return built.bin
}

var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// startSandboxProcess runs `paydash sandbox` (with extra flags, such as
// --faults) and returns its info file's contents once it is ready.
func startSandboxProcess(t *testing.T, bin, dir string, extra ...string) sandbox.Info {
	t.Helper()
	infoPath := filepath.Join(dir, "sandbox.json")
	args := []string{"sandbox", "--info-file", infoPath, "--payments", "2000", "--seed", "5",
		"--settle-delay", "200ms", "--arrivals", "0"}
	cmd := exec.Command(bin, append(args, extra...)...)
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})

	var info sandbox.Info
	deadline := time.Now().Add(e2eWait)
	for {
		raw, err := os.ReadFile(infoPath)
		if err == nil && json.Unmarshal(raw, &info) == nil && info.BaseURL != "" {
			break
		}
		select {
		case <-exited:
			t.Fatalf("paydash sandbox stopped before it was ready:\n%s", out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("paydash sandbox wrote no info file in %s:\n%s", e2eWait, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	require.NotEmpty(t, info.MerchantIDs)
	return info
}

// findOrMakePayment finds a payment of the merchant created today in the
// given status (a Settled one still fully refundable and worth at least 2),
// or makes one with a test card when the seed has none today.
func findOrMakePayment(t *testing.T, api *v2.Client, merchant string, status v2.PaymentStatus) v2.PaymentListItem {
	t.Helper()
	ctx := context.Background()
	now := time.Now()
	y, m, d := now.Date()
	today := v2.ListParams{MerchantID: merchant, Start: time.Date(y, m, d, 0, 0, 0, 0, now.Location()), End: now.Add(time.Hour)}
	var refunded map[string]bool
	if status == v2.PaymentStatusSettled {
		refunded = map[string]bool{}
		for r, err := range api.Refunds.All(ctx, today) {
			require.NoError(t, err)
			refunded[r.PaymentID] = true
		}
	}
	for p, err := range api.Payments.All(ctx, today) {
		require.NoError(t, err)
		if p.Status != status || refunded[p.ID] {
			continue
		}
		if status == v2.PaymentStatusSettled && p.Amount.Value < money.MustParse("2") {
			continue
		}
		return p
	}
	amount := money.Amount{Value: money.MustParse("1250.00"), Currency: "RUB"}
	p, _, err := api.Payments.Create(ctx, &v2.PaymentRequest{
		MerchantID: merchant, DualMode: status == v2.PaymentStatusAuthorized, Amount: &amount,
		Invoice:     &v2.Invoice{Description: "End-to-end " + string(status), OrderNo: "E2E-" + string(status)},
		PaymentData: &v2.PaymentData{PaymentMethod: v2.PaymentMethodBankCard, Card: &v2.Card{PAN: "4111111111111111", Expiry: "12/30", CVC: "123"}},
		Customer:    &v2.Customer{Email: "e2e@example.com", IP: "203.0.113.9"},
	}, nil)
	require.NoError(t, err)
	require.Equal(t, status, p.Status)
	t.Logf("no %s payment of merchant %s today in the seed: made %s", status, merchant, p.ID)
	return v2.PaymentListItem{ID: p.ID, Created: p.Created, Status: p.Status, MerchantID: p.MerchantID,
		Invoice: p.Invoice, Amount: p.Amount, PaymentData: p.PaymentData}
}

// refundsOf lists the refunds of a payment made today (a refund of a
// payment of today cannot be older).
func refundsOf(t *testing.T, api *v2.Client, merchant, paymentID string) []v2.Refund {
	t.Helper()
	now := time.Now()
	var out []v2.Refund
	for r, err := range api.Refunds.All(context.Background(), v2.ListParams{MerchantID: merchant,
		Start: now.AddDate(0, 0, -2), End: now.Add(time.Hour)}) {
		require.NoError(t, err)
		if r.PaymentID == paymentID {
			out = append(out, r)
		}
	}
	return out
}

func newRefunds(before, after []v2.Refund) []v2.Refund {
	var added []v2.Refund
	for _, r := range after {
		if !slices.ContainsFunc(before, func(b v2.Refund) bool { return b.ID == r.ID }) {
			added = append(added, r)
		}
	}
	return added
}

// assertJournaled checks that the journal has a "sent" entry for the
// payment followed by a "done" one (for a refund, the done entry may name
// the new refund instead), with the amount when given.
func assertJournaled(t *testing.T, entries []journal.Entry, action, paymentID, refundID string, amount *money.Amount) {
	t.Helper()
	sent, done := -1, -1
	for i, e := range entries {
		switch {
		case e.Action != action:
		case e.Phase == journal.PhaseSent && e.ObjectID == paymentID && sent < 0:
			sent = i
			if amount != nil {
				v, err := money.Parse(e.Amount)
				if assert.NoError(t, err, "the sent entry's amount %q", e.Amount) {
					assert.Equal(t, amount.Value, v, "the journal has the amount sent")
				}
				assert.Equal(t, amount.Currency, e.Currency)
				assert.NotEmpty(t, e.IdempotencyKey, "a refund is keyed")
			}
		case e.Phase == journal.PhaseDone && (e.ObjectID == paymentID || (refundID != "" && e.ObjectID == refundID)):
			done = i
		}
	}
	assert.GreaterOrEqual(t, sent, 0, "a sent %s entry for %s in %+v", action, paymentID, entries)
	assert.Greater(t, done, sent, "a done %s entry for %s after the sent one in %+v", action, paymentID, entries)
}

// terminal is paydash running in a pseudo-terminal, its screen emulated.
type terminal struct {
	cmd    *exec.Cmd
	pty    *os.File
	vt     *vt
	exited chan struct{}
	code   int
	// drained is closed once copyAll read the pseudo-terminal to its end:
	// the program may exit before its last output was read.
	drained chan struct{}

	rawMu sync.Mutex
	raw   []byte // the last rawKeep bytes of output
}

func startInTerminal(t *testing.T, bin string, args, env []string, dir string) *terminal {
	t.Helper()
	home := filepath.Join(dir, "home")
	require.NoError(t, os.MkdirAll(home, 0o700))
	cmd := exec.Command(bin, args...)
	cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home, // no config file of the machine's user is read
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"TERM=xterm-256color",
		"NO_COLOR=1",
	}, env...)
	if tz, ok := os.LookupEnv("TZ"); ok {
		cmd.Env = append(cmd.Env, "TZ="+tz) // the same "today" as the test
	}
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: e2eRows, Cols: e2eCols})
	require.NoError(t, err)
	term := &terminal{cmd: cmd, pty: f, vt: newVT(e2eCols, e2eRows), exited: make(chan struct{}), drained: make(chan struct{})}
	go term.copyAll(f)
	go func() {
		err := cmd.Wait()
		term.code = cmd.ProcessState.ExitCode()
		_ = err // the exit code says it
		close(term.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-term.exited:
		default:
			_ = cmd.Process.Kill()
			<-term.exited
		}
		_ = f.Close()
	})
	return term
}

// copyAll reads the pseudo-terminal until it closes (EIO once the program
// exits on Linux), into the screen and the raw log.
func (tm *terminal) copyAll(src *os.File) {
	defer close(tm.drained)
	buf := make([]byte, 32*1024)
	for {
		k, err := src.Read(buf)
		if k > 0 {
			_, _ = tm.vt.Write(buf[:k])
			tm.rawMu.Lock()
			tm.raw = append(tm.raw, buf[:k]...)
			if len(tm.raw) > rawKeep {
				tm.raw = append(tm.raw[:0], tm.raw[len(tm.raw)-rawKeep:]...)
			}
			tm.rawMu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

const rawKeep = 1 << 20

// tailIf is rawTail when cond holds (a failure message's detail).
func (tm *terminal) tailIf(cond bool) string {
	if !cond {
		return ""
	}
	return tm.rawTail()
}

// rawTail is the end of the program's output with escape sequences removed,
// for messages about a program that went wrong.
func (tm *terminal) rawTail() string {
	select {
	case <-tm.exited:
		// All of an exited program's output, its last words included.
		select {
		case <-tm.drained:
		case <-time.After(10 * time.Second):
		}
	default:
	}
	tm.rawMu.Lock()
	defer tm.rawMu.Unlock()
	s := ansi.Strip(string(tm.raw))
	if len(s) > 20000 {
		s = s[len(s)-20000:]
	}
	return s
}

func (tm *terminal) send(t *testing.T, keys string) {
	t.Helper()
	_, err := tm.pty.Write([]byte(keys))
	require.NoError(t, err, "typing %q", keys)
}

// waitFor waits until the screen satisfies ok, and fails with the screen
// when it does not in time or the program exits.
func (tm *terminal) waitFor(t *testing.T, what string, ok func(screen string) bool) string {
	t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		s := tm.vt.Screen()
		if ok(s) {
			if os.Getenv("PAYDASH_E2E_SCREENS") != "" {
				t.Logf("%s:\n%s", what, s)
			}
			return s
		}
		select {
		case <-tm.exited:
			t.Fatalf("paydash exited (code %d) while waiting for %s; the last screen:\n%s", tm.code, what, s)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s; the screen:\n%s", e2eWait, what, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// settle waits until the program has drawn nothing for a moment, so that
// the next keys go to the screen the test has seen.
func (tm *terminal) settle() {
	deadline := time.Now().Add(3 * time.Second)
	last, since := tm.vt.Bytes(), time.Now()
	for time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		if n := tm.vt.Bytes(); n != last {
			last, since = n, time.Now()
		} else if time.Since(since) >= 150*time.Millisecond {
			return
		}
	}
}

func (tm *terminal) wait(t *testing.T, timeout time.Duration) int {
	t.Helper()
	select {
	case <-tm.exited:
		return tm.code
	case <-time.After(timeout):
		// Ask the Go runtime where it is stuck: SIGQUIT prints every
		// goroutine's stack, which the raw output then holds.
		screen := tm.vt.Screen()
		_ = tm.cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-tm.exited:
		case <-time.After(2 * time.Second):
		}
		t.Fatalf("paydash did not exit within %s; the screen:\n%s\n\nits last output:\n%s", timeout, screen, tm.rawTail())
		return -1
	}
}

// waitForService polls the service until ok, failing with the screen.
func waitForService(t *testing.T, tm *terminal, what string, ok func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(e2eWait)
	var state string
	for {
		var done bool
		done, state = ok()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s (now: %s); the screen:\n%s", e2eWait, what, state, tm.vt.Screen())
		}
		select {
		case <-tm.exited:
			t.Fatalf("paydash exited (code %d) while waiting for %s (now: %s); the screen:\n%s", tm.code, what, state, tm.vt.Screen())
		default:
		}
		time.Sleep(50 * time.Millisecond)
	}
}
