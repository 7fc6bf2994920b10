package main

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"paydash/backend/journal"
	v2 "paydash/backend/v2"
)

// The end-to-end tests of paydash serve: the binary serving a sandbox of
// the test's own over SSH, people connecting with golang.org/x/crypto/ssh
// clients and keys of their own, driven as a person drives a terminal.

// servedTeam is a running paydash serve, its people's keys and its files.
type servedTeam struct {
	s      *e2eSession
	cmd    *exec.Cmd
	addr   string
	keys   map[string]gossh.Signer
	people string // the people file
	log    *syncBuffer
	exited chan struct{}
}

// teamPeople are the test's people: a support person allowed 1.00 RUB
// alone, two supervisors and a viewer.
var teamPeople = []struct{ name, role, limits string }{
	{"desk-1", "support", `RUB = "1"`},
	{"boss-1", "supervisor", ""},
	{"boss-2", "supervisor", ""},
	{"look-1", "viewer", ""},
}

func startTeam(t *testing.T) *servedTeam {
	t.Helper()
	s := newOwnSession(t, false)
	st := &servedTeam{s: s, keys: map[string]gossh.Signer{}, people: filepath.Join(s.dir, "people.toml"),
		log: &syncBuffer{}, exited: make(chan struct{})}
	var file strings.Builder
	for _, p := range teamPeople {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		require.NoError(t, err)
		signer, err := gossh.NewSignerFromKey(priv)
		require.NoError(t, err)
		st.keys[p.name] = signer
		fmt.Fprintf(&file, "[[person]]\nname = %q\nrole = %q\nkeys = [%q]\n", p.name, p.role,
			strings.TrimSpace(string(gossh.MarshalAuthorizedKey(signer.PublicKey()))))
		if p.limits != "" {
			fmt.Fprintf(&file, "[person.limits]\n%s\n", p.limits)
		}
		file.WriteString("\n")
	}
	require.NoError(t, os.WriteFile(st.people, []byte(file.String()), 0o600))
	st.cmd = exec.Command(s.bin, "serve", "--addr", "127.0.0.1:0", "--people", st.people,
		"--host-key", filepath.Join(s.dir, "host_key"), "--journal", s.journal,
		"--base-url", s.info.BaseURL, "--ca-file", s.info.CAFile, "--merchant", s.merchant,
		"--idle-timeout", "1h")
	st.cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + s.dir}, s.env...)
	out, err := st.cmd.StdoutPipe()
	require.NoError(t, err)
	st.cmd.Stderr = st.log
	require.NoError(t, st.cmd.Start())
	go func() { _ = st.cmd.Wait(); close(st.exited) }()
	t.Cleanup(st.stop)
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case st.addr = <-addr:
	case <-st.exited:
		t.Fatalf("paydash serve stopped:\n%s", st.log.String())
	case <-time.After(e2eWait):
		t.Fatalf("paydash serve did not listen in %s:\n%s", e2eWait, st.log.String())
	}
	return st
}

var listening = regexp.MustCompile(`listening on (\S+);`)

func (st *servedTeam) stop() {
	_ = st.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-st.exited:
	case <-time.After(20 * time.Second):
		_ = st.cmd.Process.Kill()
		<-st.exited
	}
}

// sshTerm is one person's SSH session with a terminal, read through the
// same emulator as the other end-to-end tests.
type sshTerm struct {
	*terminal
	client *gossh.Client
	sess   *gossh.Session
	in     io.WriteCloser
}

// dial connects as name with signer; the error is the refusal, if any.
func (st *servedTeam) dial(name string, signer gossh.Signer) (*gossh.Client, error) {
	return gossh.Dial("tcp", st.addr, &gossh.ClientConfig{
		User: name, Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: e2eWait,
	})
}

// connect opens name's dashboard at 120×40 and waits for the payments.
func (st *servedTeam) connect(t *testing.T, name string) *sshTerm {
	t.Helper()
	c, err := st.dial(name, st.keys[name])
	require.NoError(t, err, "%s connecting", name)
	sess, err := c.NewSession()
	require.NoError(t, err)
	require.NoError(t, sess.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}))
	in, err := sess.StdinPipe()
	require.NoError(t, err)
	out, err := sess.StdoutPipe()
	require.NoError(t, err)
	tm := &terminal{vt: newVT(120, 40), exited: make(chan struct{}), drained: make(chan struct{})}
	go func() {
		_, _ = io.Copy(tm.vt, out)
		close(tm.drained)
	}()
	require.NoError(t, sess.Shell())
	go func() { _ = sess.Wait(); close(tm.exited) }()
	term := &sshTerm{terminal: tm, client: c, sess: sess, in: in}
	t.Cleanup(func() { _ = c.Close() })
	term.waitFor(t, name+"'s payments", func(sc string) bool { return strings.Contains(sc, "Payments") && strings.Contains(sc, "Approvals") })
	return term
}

func (tm *sshTerm) send(t *testing.T, keys string) {
	t.Helper()
	_, err := tm.in.Write([]byte(keys))
	require.NoError(t, err, "typing %q", keys)
}

// refundDialog opens payment id and its refund confirmation.
func (tm *sshTerm) refundDialog(t *testing.T, id string) string {
	t.Helper()
	tm.settle()
	tm.send(t, ":"+id+"\r")
	tm.waitFor(t, "payment "+id, func(sc string) bool { return strings.Contains(sc, "Payment "+id) && strings.Contains(sc, "Settled") })
	tm.settle()
	tm.send(t, "R")
	return tm.waitFor(t, "the refund's confirmation", func(sc string) bool {
		return strings.Contains(sc, "Refund payment "+id) && strings.Contains(sc, "[ Cancel ]")
	})
}

// confirm presses y once the dialog has been still for its guard.
func (tm *sshTerm) confirm(t *testing.T) {
	t.Helper()
	tm.quiet(1200 * time.Millisecond) // longer than the confirmation's guard
	tm.send(t, "y")
}

func TestEndToEndServeApprovalsOverSSH(t *testing.T) {
	st := startTeam(t)
	p := findOrMakePayment(t, st.s.api, st.s.merchant, v2.PaymentStatusSettled)
	before := refundsOf(t, st.s.api, st.s.merchant, p.ID)

	// A support person's refund above their limit sends nothing and files
	// a request.
	desk := st.connect(t, "desk-1")
	sc := desk.refundDialog(t, p.ID)
	// The dialog covers the pane: its lines share screen rows with the
	// pane's, so each part is looked for alone.
	require.Contains(t, sc, "needs approval by a supervisor.")
	require.Contains(t, sc, "Confirming files the request")
	require.Contains(t, sc, "Ask approval")
	desk.confirm(t)
	desk.waitFor(t, "the request filed", func(sc string) bool { return strings.Contains(unwrappedScreen(sc), "asked a supervisor") })
	assert.Len(t, refundsOf(t, st.s.api, st.s.merchant, p.ID), len(before), "nothing was sent")

	// The supervisors see it at once; both approve at the same moment.
	boss1, boss2 := st.connect(t, "boss-1"), st.connect(t, "boss-2")
	for _, b := range []*sshTerm{boss1, boss2} {
		b.settle()
		b.send(t, "6")
		b.waitFor(t, "the request", func(sc string) bool { return strings.Contains(sc, "desk-1") && strings.Contains(sc, "waiting") })
		b.settle()
		b.send(t, "a")
		b.waitFor(t, "the approval's confirmation", func(sc string) bool { return strings.Contains(sc, "Approve and send") })
		b.quiet(1200 * time.Millisecond)
	}
	boss1.send(t, "y")
	boss2.send(t, "y")

	// Exactly one refund, of exactly the amount asked for, exists.
	waitForService(t, boss1.terminal, "one refund more", func() (bool, string) {
		n := len(newRefunds(before, refundsOf(t, st.s.api, st.s.merchant, p.ID)))
		return n >= 1, fmt.Sprintf("%d new refunds", n)
	})
	boss1.quiet(time.Second)
	made := newRefunds(before, refundsOf(t, st.s.api, st.s.merchant, p.ID))
	require.Len(t, made, 1, "two supervisors approving at once send one refund")
	desk.waitFor(t, "the requester told", func(sc string) bool { return strings.Contains(unwrappedScreen(sc), "approved by boss-") })

	// The journal names the requester and the approver.
	var sent *journal.Entry
	entries, err := journal.Read(st.s.journal)
	require.NoError(t, err)
	for i, e := range entries {
		if e.Action == "refund" && e.Phase == journal.PhaseSent && e.ObjectID == p.ID {
			sent = &entries[i]
		}
	}
	require.NotNil(t, sent)
	assert.Equal(t, "desk-1", sent.Person)
	assert.Contains(t, []string{"boss-1", "boss-2"}, sent.Approver)
	assert.True(t, strings.HasPrefix(sent.ApproverKey, "SHA256:"), sent.ApproverKey)
}

func TestEndToEndServeRefusesAndRoles(t *testing.T) {
	st := startTeam(t)

	// An unknown key, and a known key under another person's name, are
	// refused before any screen.
	_, stranger, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	signer, err := gossh.NewSignerFromKey(stranger)
	require.NoError(t, err)
	_, err = st.dial("desk-1", signer)
	require.Error(t, err, "an unknown key")
	_, err = st.dial("boss-1", st.keys["desk-1"])
	require.Error(t, err, "desk-1's key as boss-1")
	assert.Contains(t, st.log.String(), "key refused")

	// No command: a terminal session only.
	c, err := st.dial("desk-1", st.keys["desk-1"])
	require.NoError(t, err)
	sess, err := c.NewSession()
	require.NoError(t, err)
	_, err = sess.Output("cat /etc/passwd")
	assert.Error(t, err, "exec is refused")
	_ = c.Close()

	// A viewer cannot act: the refund key says why.
	look := st.connect(t, "look-1")
	p := findOrMakePayment(t, st.s.api, st.s.merchant, v2.PaymentStatusSettled)
	look.settle()
	look.send(t, ":"+p.ID+"\r")
	look.waitFor(t, "the payment", func(sc string) bool { return strings.Contains(sc, "Payment "+p.ID) })
	look.settle()
	look.send(t, "R")
	look.waitFor(t, "the reason", func(sc string) bool { return strings.Contains(unwrappedScreen(sc), "viewer") })

	// A person removed from the people file is disconnected at the
	// reload (SIGHUP), and cannot connect again.
	desk := st.connect(t, "desk-1")
	st.reloadPeople(t, func(block string) string {
		if strings.Contains(block, `"desk-1"`) {
			return ""
		}
		return block
	})
	select {
	case <-desk.exited:
	case <-time.After(e2eWait):
		t.Fatalf("desk-1 was not disconnected after the reload; the screen:\n%s\nthe log:\n%s", desk.vt.Screen(), st.log.String())
	}
	_, err = st.dial("desk-1", st.keys["desk-1"])
	assert.Error(t, err, "a person removed cannot connect again")
}

// reloadPeople rewrites the people file, each [[person]] block as edit
// gives it back ("" leaves the person out), sends SIGHUP and waits until
// the server's log says it has read the file again.
func (st *servedTeam) reloadPeople(t *testing.T, edit func(block string) string) {
	t.Helper()
	raw, err := os.ReadFile(st.people)
	require.NoError(t, err)
	var file strings.Builder
	for _, block := range strings.Split(string(raw), "[[person]]") {
		if strings.TrimSpace(block) == "" {
			continue
		}
		if b := edit(block); b != "" {
			file.WriteString("[[person]]" + b)
		}
	}
	require.NoError(t, os.WriteFile(st.people, []byte(file.String()), 0o600))
	reloads := strings.Count(st.log.String(), "people reloaded")
	require.NoError(t, st.cmd.Process.Signal(syscall.SIGHUP))
	err = pollUntil(e2eWait, 20*time.Millisecond, st.exited, func() bool {
		return strings.Count(st.log.String(), "people reloaded") > reloads
	})
	require.NoError(t, err, "the reload; the log:\n%s", st.log.String())
}
