package main

import (
	"context"
	"crypto/x509"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/sandbox"
	v2 "paydash/backend/v2"
)

// The session of an end-to-end test: the sandbox it runs paydash against
// (its own, the shared one, or one in the test process whose faults it
// sets), an API client to check the service behind the dashboard's back,
// and paydash's settings and journal.

// e2eSession is one test's sandbox, API client (for checking the service
// behind the dashboard's back) and paydash settings.
type e2eSession struct {
	t        *testing.T
	bin, dir string
	info     sandbox.Info
	api      *v2.Client
	merchant string
	journal  string
	env      []string
	// srv is the sandbox when it runs in the test's process
	// (newFaultSession), for setFaults and storeRefunds; nil otherwise.
	srv *sandbox.Server
}

// newOwnSession starts a `paydash sandbox` process of the test's own (a
// test that changes what the service holds), beside the other tests.
func newOwnSession(t *testing.T, withV1 bool) *e2eSession {
	t.Helper()
	skipUnlessE2E(t)
	dir := t.TempDir()
	bin := paydashBinary(t)
	return sessionOn(t, bin, dir, startSandboxProcess(t, bin, dir), withV1)
}

// newFaultSession starts a sandbox of the test's own in the test's
// process, without faults: the test sets them (setFaults) for the part of
// paydash's run it is about, and reads the service without them before
// and after, at once instead of through seconds of latency.
func newFaultSession(t *testing.T, withV1 bool) *e2eSession {
	t.Helper()
	skipUnlessE2E(t)
	dir := t.TempDir()
	srv, err := sandbox.Start(context.Background(), sandbox.Options{Seed: 5, Payments: 2000, SettleDelay: 200 * time.Millisecond})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	require.NoError(t, srv.WriteInfoFile(filepath.Join(dir, "sandbox.json")))
	s := sessionOn(t, paydashBinary(t), dir, srv.Info(), withV1)
	s.srv = srv
	return s
}

// setFaults sets the sandbox's faults (sandbox.ParseFaults; "" for none)
// from the next request on.
func (s *e2eSession) setFaults(spec string) {
	s.t.Helper()
	f, err := sandbox.ParseFaults(spec)
	require.NoError(s.t, err)
	require.NoError(s.t, s.srv.SetFaults(f))
}

// storeRefunds counts the refunds of payment p in the sandbox's store,
// read in the test's process: what the service did, whatever faults
// hold its answers back.
func (s *e2eSession) storeRefunds(p v2.PaymentListItem) int {
	s.t.Helper()
	return refundsInStore(s.t, s.srv, p.MerchantID, p.ID, p.Created)
}

// refundsInStore counts the refunds of payment id (of merchant, made at
// created) in srv's store.
func refundsInStore(t *testing.T, srv *sandbox.Server, merchant, id string, created time.Time) int {
	t.Helper()
	n, cursor := 0, ""
	for {
		page, err := srv.Store().ListRefunds(sandbox.ListQuery{MerchantID: merchant,
			Start: created.Add(-time.Minute), End: time.Now().Add(time.Hour), Cursor: cursor})
		require.NoError(t, err)
		for _, r := range page.Items {
			if r.PaymentID == id {
				n++
			}
		}
		if cursor = page.Cursor; cursor == "" {
			return n
		}
	}
}

// newReadOnlySession is a session on the sandbox the tests share, for a
// test that only reads from the service.
func newReadOnlySession(t *testing.T, withV1 bool) *e2eSession {
	t.Helper()
	skipUnlessE2E(t)
	return sessionOn(t, paydashBinary(t), t.TempDir(), sharedSandbox(t), withV1)
}

// skipUnlessE2E skips an end-to-end test where it cannot run, and runs it
// beside the others: it mostly waits.
func skipUnlessE2E(t *testing.T) {
	t.Helper()
	skipWithoutPTY(t)
	t.Parallel()
}

// skipWithoutPTY skips an end-to-end test where it cannot run.
func skipWithoutPTY(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the binary in a pseudo-terminal")
	}
	if runtime.GOOS == "windows" {
		t.Skip("needs a Unix pseudo-terminal")
	}
}

// sessionOn is a session of paydash (bin, its files in dir) on the sandbox
// that info describes, with the accountant's v1 login when withV1.
func sessionOn(t *testing.T, bin, dir string, info sandbox.Info, withV1 bool) *e2eSession {
	t.Helper()
	pem, err := os.ReadFile(info.CAFile)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(pem))
	api, err := v2.NewClient(info.BaseURL, info.V2Token, v2.WithRootCAs(pool), v2.WithRetries(8, 50*time.Millisecond))
	require.NoError(t, err)
	s := &e2eSession{t: t, bin: bin, dir: dir, info: info, api: api, journal: filepath.Join(dir, "state", "journal.jsonl")}
	s.env = []string{"PAYDASH_V2_TOKEN=" + info.V2Token}
	if withV1 {
		for _, u := range info.V1Users {
			if u.Role == sandbox.RoleAccountant {
				s.env = append(s.env, "PAYDASH_V1_LOGIN="+u.Login, "PAYDASH_V1_PASSWORD="+u.Password)
			}
		}
	}
	s.merchant = info.MerchantIDs[0]
	return s
}

// start runs paydash on the session's journal, with the merchant shown.
func (s *e2eSession) start(merchant string) *terminal {
	s.t.Helper()
	tm := startInTerminal(s.t, s.bin, []string{"--base-url", s.info.BaseURL, "--ca-file", s.info.CAFile,
		"--merchant", merchant, "--journal", s.journal}, s.env, s.dir)
	tm.waitFor(s.t, "the payments list", func(sc string) bool {
		return strings.Contains(sc, "Payments") && strings.Contains(sc, "merchant "+merchant)
	})
	return tm
}

// retry repeats a read of the service through its faults.
func retry[T any](t *testing.T, what string, f func() (T, error)) T {
	t.Helper()
	var (
		v     T
		err   error
		tries int
	)
	_ = pollUntil(e2eWait, 50*time.Millisecond, nil, func() bool {
		tries++
		v, err = f()
		return err == nil || tries == 20
	})
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// payments finds n payments in status of the last 30 days, of any merchant
// (jumping by id opens any), worth at least 2.
func (s *e2eSession) payments(status v2.PaymentStatus, n int, skip map[string]bool) []v2.PaymentListItem {
	s.t.Helper()
	var out []v2.PaymentListItem
	now := time.Now()
	for _, m := range s.info.MerchantIDs {
		cursor := ""
		for len(out) < n {
			page := retry(s.t, "list payments", func() (*v2.PaymentList, error) {
				p, _, err := s.api.Payments.List(context.Background(), v2.ListParams{MerchantID: m,
					Start: now.AddDate(0, 0, -30), End: now.Add(time.Hour), Cursor: cursor})
				return p, err
			})
			for _, p := range page.Items {
				if p.Status == status && !skip[p.ID] && p.Amount.Value >= money.MustParse("2") && len(out) < n {
					out = append(out, p)
					skip[p.ID] = true
				}
			}
			if cursor = page.Cursor; cursor == "" {
				break
			}
		}
	}
	require.Len(s.t, out, n, "%d %s payments in the seed", n, status)
	return out
}

func (s *e2eSession) refunds(p v2.PaymentListItem) []v2.Refund {
	s.t.Helper()
	return retry(s.t, "list refunds", func() ([]v2.Refund, error) {
		var out []v2.Refund
		for r, err := range s.api.Refunds.All(context.Background(), v2.ListParams{MerchantID: p.MerchantID,
			Start: p.Created.Add(-time.Minute), End: time.Now().Add(time.Hour)}) {
			if err != nil {
				return nil, err
			}
			if r.PaymentID == p.ID {
				out = append(out, r)
			}
		}
		return out, nil
	})
}

func (s *e2eSession) payment(id string) *v2.Payment {
	s.t.Helper()
	return retry(s.t, "read payment "+id, func() (*v2.Payment, error) {
		p, _, err := s.api.Payments.Get(context.Background(), id)
		return p, err
	})
}

func (s *e2eSession) entries() []journal.Entry {
	s.t.Helper()
	e, err := journal.Read(s.journal)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(s.t, err)
	return e
}

// sentLine waits for the journal's sent line of an action on payment id.
func (s *e2eSession) sentLine(tm *terminal, id string) journal.Entry {
	s.t.Helper()
	var sent journal.Entry
	tm.poll(s.t, "the journal's sent line for "+id, e2eWait, 10*time.Millisecond, func() (bool, string) {
		for _, e := range s.entries() {
			if e.Phase == journal.PhaseSent && e.ObjectID == id {
				sent = e
				return true, ""
			}
		}
		return false, "no sent line"
	})
	return sent
}
