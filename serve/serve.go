// Package serve serves the dashboard over SSH to the people of a people
// file (package team): each SSH session with a terminal gets a dashboard of
// its own, drawn at the session's size. It is the SSH side only: who gets
// in (a key of the people file, under that person's name), what they may
// open (a terminal session, nothing else), how many sessions run, when an
// idle one ends, and what is logged. The dashboard itself, and everything
// the sessions share, comes from Options.Dashboard (the root package's
// serve command). docs/serve.md describes it for the people who run it.
package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"

	"paydash/team"
)

// Defaults of Options.
const (
	DefaultAddr         = "127.0.0.1:2222"
	DefaultIdleTimeout  = 30 * time.Minute
	DefaultMaxSessions  = 100
	DefaultMaxPerPerson = 4
)

// Options are a server's settings. People and Dashboard are required.
type Options struct {
	Addr   string // HOST:PORT; DefaultAddr when ""
	Public bool   // allow an address that is not loopback
	// HostKeyPEM is the server's private host key (HostKey reads or makes it).
	HostKeyPEM []byte
	People     *team.Directory
	// Logger gets every login, logout, refused key, refused session and
	// reload; nil discards.
	Logger       *slog.Logger
	IdleTimeout  time.Duration // a session with no key pressed for this long ends; DefaultIdleTimeout when 0
	MaxSessions  int           // sessions at once, everyone's; DefaultMaxSessions when 0
	MaxPerPerson int           // sessions at once of one person; DefaultMaxPerPerson when 0
	// Dashboard makes the dashboard of one session. Its Close is called
	// when the session has ended.
	Dashboard func(s Session) (Dashboard, error)
	// Stop is the message that asks a running dashboard to quit the way
	// q does (it waits for an action's answer); why says for the log.
	Stop func(why string) tea.Msg
	Now  func() time.Time // the clock of the idle timeout; nil = time.Now
	// IdleCheck is how often a session's idleness is looked at; 0 = a
	// tenth of the idle timeout, at most a minute (tests look more often).
	IdleCheck time.Duration
}

// Session is who a session is, for the dashboard made for it.
type Session struct {
	ID          string // the SSH session's id, short
	Person      string // the person's name (its role and limits: the directory, read again at every use)
	Fingerprint string // the fingerprint of the key they came in with
	Remote      string // where they came from
	Width       int
	Height      int
}

// Dashboard is one session's program model and what ends with it.
type Dashboard struct {
	Model   tea.Model
	Options []tea.ProgramOption // more program options (the session's input and output are set by the server)
	Close   func()
}

// Server is a running paydash serve.
type Server struct {
	o    Options
	ssh  *ssh.Server
	log  *slog.Logger
	now  func() time.Time
	mu   sync.Mutex
	live map[*live]struct{}
}

// live is one open session.
type live struct {
	who     Session
	program *tea.Program
	session ssh.Session
	ended   chan struct{}
	stopped string // why the server ended it ("" while it runs on)
}

// New checks o and makes the server; Serve starts it on a listener.
func New(o Options) (*Server, error) {
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	if err := CheckAddr(o.Addr, o.Public); err != nil {
		return nil, err
	}
	if o.People == nil || o.Dashboard == nil || o.Stop == nil {
		return nil, errors.New("serve: People, Dashboard and Stop are required")
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.MaxPerPerson <= 0 {
		o.MaxPerPerson = DefaultMaxPerPerson
	}
	s := &Server{o: o, log: o.Logger, now: o.Now, live: map[*live]struct{}{}}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	srv, err := wish.NewServer(
		wish.WithAddress(o.Addr),
		wish.WithHostKeyPEM(o.HostKeyPEM),
		wish.WithPublicKeyAuth(s.allowKey),
		wish.WithMiddleware(s.handle),
	)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	lockDown(srv)
	s.ssh = srv
	return s, nil
}

// CheckAddr refuses an address that is not loopback unless public is set:
// a server that anyone on the network can reach is a choice, not a default.
func CheckAddr(addr string, public bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q is not HOST:PORT (%v)", addr, err)
	}
	if public || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--addr %s can be reached from other machines; give --public as well if that is meant", addr)
}

// Serve serves on l until Shutdown.
func (s *Server) Serve(l net.Listener) error {
	err := s.ssh.Serve(l)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown asks every dashboard to quit as q does, waits for them until ctx
// ends, then closes what is left.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stopAll(func(Session) string { return "the server is stopping" })
	done := make(chan error, 1)
	go func() { done <- s.ssh.Shutdown(ctx) }()
	s.waitAll(ctx)
	select {
	case err := <-done:
		if errors.Is(err, ssh.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
		return s.ssh.Close()
	}
}

// Reload reads the people file at path again. Sessions of people removed,
// or whose key is no longer theirs, end; a changed role or limit applies
// to open sessions at once (they read the directory at every use).
func (s *Server) Reload(path string) error {
	changes, err := s.o.People.Reload(path)
	if err != nil {
		s.log.Warn("reload refused; the people stay as they were", "file", path, "error", err.Error())
		return err
	}
	s.log.Info("people reloaded", "file", path, "added", changes.Added, "changed", changes.Changed, "removed", changes.Removed)
	people := s.o.People.Current()
	s.stopAll(func(who Session) string {
		p, ok := people.ByName(who.Person)
		if !ok {
			return "your access was removed"
		}
		if !hasFingerprint(p, who.Fingerprint) {
			return "the key you came in with was taken away"
		}
		return ""
	})
	return nil
}

// stopAll asks the sessions for which why says a reason to quit.
func (s *Server) stopAll(why func(Session) string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for l := range s.live {
		if reason := why(l.who); reason != "" {
			s.stopLocked(l, reason)
		}
	}
}

// stop asks one session to quit, for reason.
func (s *Server) stop(l *live, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopLocked(l, reason)
}

// stopLocked is stop with s.mu held; a session already asked is not asked
// again.
func (s *Server) stopLocked(l *live, reason string) {
	if l.stopped != "" {
		return
	}
	l.stopped = reason
	s.log.Info("session ended by the server", "person", l.who.Person, "session", l.who.ID, "why", reason)
	if l.program != nil { // else run sends it once the program is up
		go l.program.Send(s.o.Stop(reason))
	}
}

// waitAll waits until every session has ended or ctx ends.
func (s *Server) waitAll(ctx context.Context) {
	for {
		s.mu.Lock()
		var one *live
		for l := range s.live {
			one = l
			break
		}
		s.mu.Unlock()
		if one == nil {
			return
		}
		select {
		case <-one.ended:
		case <-ctx.Done():
			return
		}
	}
}
