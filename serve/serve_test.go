package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"paydash/team"
)

// still is a dashboard that draws one line and quits on tea.QuitMsg.
type still struct{}

func (still) Init() tea.Cmd { return nil }
func (still) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(stopMsg); ok {
		return still{}, tea.Quit
	}
	return still{}, nil
}
func (still) View() tea.View { return tea.NewView("a dashboard") }

type stopMsg struct{}

// server is a Server on a loopback port with one person, desk-1, whose
// key the test holds; now is its clock.
type server struct {
	*Server
	addr   string
	signer gossh.Signer
	now    *atomic.Int64
	log    *syncLog
}

type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startServer(t *testing.T, o Options) *server {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	signer, err := gossh.NewSignerFromKey(priv)
	require.NoError(t, err)
	people, err := team.Parse("people.toml", fmt.Appendf(nil, "[[person]]\nname = \"desk-1\"\nrole = \"viewer\"\nkeys = [%q]\n",
		strings.TrimSpace(string(gossh.MarshalAuthorizedKey(signer.PublicKey())))))
	require.NoError(t, err)
	hostKey, _, err := HostKey(t.TempDir() + "/host_key")
	require.NoError(t, err)
	now := &atomic.Int64{}
	now.Store(time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC).UnixNano())
	log := &syncLog{}
	o.HostKeyPEM, o.People, o.Logger = hostKey, team.NewDirectory(people), slog.New(slog.NewTextHandler(log, nil))
	o.Now = func() time.Time { return time.Unix(0, now.Load()) }
	o.Dashboard = func(Session) (Dashboard, error) { return Dashboard{Model: still{}}, nil }
	o.Stop = func(string) tea.Msg { return stopMsg{} }
	srv, err := New(o)
	require.NoError(t, err)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.ssh.Close() })
	return &server{Server: srv, addr: l.Addr().String(), signer: signer, now: now, log: log}
}

// open starts a terminal session as desk-1; out gets what it writes.
func (s *server) open(t *testing.T) (*gossh.Session, *syncLog, chan error) {
	t.Helper()
	c, err := gossh.Dial("tcp", s.addr, &gossh.ClientConfig{User: "desk-1", Auth: []gossh.AuthMethod{gossh.PublicKeys(s.signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	sess, err := c.NewSession()
	require.NoError(t, err)
	require.NoError(t, sess.RequestPty("xterm", 24, 80, gossh.TerminalModes{}))
	out := &syncLog{}
	sess.Stdout, sess.Stderr = out, out
	_, err = sess.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, sess.Shell())
	ended := make(chan error, 1)
	go func() { ended <- sess.Wait() }()
	return sess, out, ended
}

func waitEnded(t *testing.T, ended chan error, out *syncLog) {
	t.Helper()
	select {
	case <-ended:
	case <-time.After(time.Minute):
		t.Fatalf("the session did not end; it wrote:\n%s", out.String())
	}
}

func TestAnIdleSessionEnds(t *testing.T) {
	s := startServer(t, Options{IdleTimeout: time.Hour, IdleCheck: 5 * time.Millisecond})
	_, out, ended := s.open(t)
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "a dashboard") }, time.Minute, 5*time.Millisecond)
	select {
	case <-ended:
		t.Fatal("the session ended before it was idle")
	default:
	}
	s.now.Add(int64(61 * time.Minute)) // an hour and a minute without a key
	waitEnded(t, ended, out)
	assert.Contains(t, out.String(), "no key was pressed for 1h1m0s, the idle timeout")
	assert.Contains(t, s.log.String(), "the idle timeout")
}

func TestSessionsPerPersonAreLimited(t *testing.T) {
	s := startServer(t, Options{MaxPerPerson: 1})
	_, first, firstEnded := s.open(t)
	require.Eventually(t, func() bool { return strings.Contains(first.String(), "a dashboard") }, time.Minute, 5*time.Millisecond)
	_, second, ended := s.open(t)
	waitEnded(t, ended, second)
	assert.Contains(t, second.String(), "you already have 1 session open, the limit per person")
	select {
	case <-firstEnded:
		t.Fatal("the first session was ended by the second")
	default:
	}
}

func TestASessionWithoutATerminalIsTurnedAway(t *testing.T) {
	s := startServer(t, Options{})
	c, err := gossh.Dial("tcp", s.addr, &gossh.ClientConfig{User: "desk-1", Auth: []gossh.AuthMethod{gossh.PublicKeys(s.signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	require.NoError(t, err)
	defer c.Close()
	sess, err := c.NewSession()
	require.NoError(t, err)
	out := &syncLog{}
	sess.Stdout, sess.Stderr = out, out
	require.NoError(t, sess.Shell())
	_ = sess.Wait()
	assert.Contains(t, out.String(), "connect with a terminal")

	// Agent forwarding is asked for and refused.
	sess2, err := c.NewSession()
	require.NoError(t, err)
	ok, err := sess2.SendRequest("auth-agent-req@openssh.com", true, nil)
	require.NoError(t, err)
	assert.False(t, ok, "agent forwarding is refused")
}

func TestPortForwardingIsRefused(t *testing.T) {
	s := startServer(t, Options{})
	c, err := gossh.Dial("tcp", s.addr, &gossh.ClientConfig{User: "desk-1", Auth: []gossh.AuthMethod{gossh.PublicKeys(s.signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	require.NoError(t, err)
	defer c.Close()

	// Local forwarding (ssh -L): a direct-tcpip channel to anywhere.
	_, err = c.Dial("tcp", s.addr)
	var open *gossh.OpenChannelError
	require.ErrorAs(t, err, &open, "ssh -L is refused")

	// Remote forwarding (ssh -R): the server asked to listen.
	_, err = c.Listen("tcp", "127.0.0.1:0")
	assert.Error(t, err, "ssh -R is refused")
}
