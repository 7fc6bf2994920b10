package serve

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/bubbletea"

	"paydash/team"
)

// handle is the server's one middleware: it runs a dashboard for a session
// that passed allowKey, within the limits, and logs the login and logout.
func (s *Server) handle(ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		name, _ := sess.Context().Value(ctxPerson{}).(string)
		who := Session{ID: shortID(sess.Context().SessionID()), Person: name,
			Fingerprint: team.Fingerprint(sess.PublicKey()), Remote: remote(sess.Context())}
		pty, winch, ok := sess.Pty()
		if !ok || sess.RawCommand() != "" {
			s.log.Warn("session refused: not a terminal session", "person", name, "session", who.ID, "command", sess.RawCommand() != "")
			wish.Fatalln(sess, "paydash serve gives a dashboard only: connect with a terminal and no command (ssh -t -p PORT "+name+"@HOST)")
			return
		}
		who.Width, who.Height = pty.Window.Width, pty.Window.Height
		l, why := s.admit(who, sess)
		if l == nil {
			s.log.Warn("session refused", "person", name, "session", who.ID, "why", why)
			wish.Fatalln(sess, "paydash serve: "+why)
			return
		}
		defer s.leave(l)
		s.run(l, winch)
	}
}

// admit registers a session within the limits, or says why not.
func (s *Server) admit(who Session, sess ssh.Session) (*live, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.live) >= s.o.MaxSessions {
		return nil, fmt.Sprintf("the server already has %d sessions, its limit; try again later", s.o.MaxSessions)
	}
	mine := 0
	for l := range s.live {
		if l.who.Person == who.Person {
			mine++
		}
	}
	if mine >= s.o.MaxPerPerson {
		what := "sessions"
		if mine == 1 {
			what = "session"
		}
		return nil, fmt.Sprintf("you already have %d %s open, the limit per person; close one first", mine, what)
	}
	l := &live{who: who, session: sess, ended: make(chan struct{})}
	s.live[l] = struct{}{}
	return l, ""
}

// leave ends a session's registration and says why it ended, on the
// terminal the dashboard has given back.
func (s *Server) leave(l *live) {
	s.mu.Lock()
	delete(s.live, l)
	why := l.stopped
	s.mu.Unlock()
	close(l.ended)
	if why != "" {
		_, _ = fmt.Fprintf(l.session.Stderr(), "paydash serve: %s\r\n", why)
	}
	s.log.Info("logout", "person", l.who.Person, "session", l.who.ID, "why", orDefault(why, "quit"))
}

// run runs the session's dashboard until it quits, the client goes, or the
// server ends it; the window's changes reach it as they come.
func (s *Server) run(l *live, winch <-chan ssh.Window) {
	d, err := s.o.Dashboard(l.who)
	if err != nil {
		s.log.Error("dashboard not made", "person", l.who.Person, "session", l.who.ID, "error", err.Error())
		wish.Fatalln(l.session, "paydash serve: the dashboard could not start: "+err.Error())
		return
	}
	if d.Close != nil {
		defer d.Close()
	}
	input := &activity{r: l.session, now: s.now}
	input.last.Store(s.now().UnixNano())
	opts := append(bubbletea.MakeOptions(l.session), tea.WithInput(input), tea.WithoutSignalHandler())
	p := tea.NewProgram(d.Model, append(opts, d.Options...)...)
	s.mu.Lock()
	l.program = p
	if l.stopped != "" { // ended (a reload) before its program was up
		go p.Send(s.o.Stop(l.stopped))
	}
	s.mu.Unlock()
	s.log.Info("login", "person", l.who.Person, "session", l.who.ID, "remote", l.who.Remote, "key", l.who.Fingerprint)

	ctx := l.session.Context()
	done := make(chan struct{})
	go s.watch(l, input, winch, done)
	go func() {
		select {
		case <-ctx.Done(): // the client went: nothing to draw on
			p.Quit()
		case <-done:
		}
	}()
	_, _ = p.Run()
	close(done)
	p.Kill()
}

// watch passes the window's size to the dashboard and ends a session idle
// for longer than the idle timeout, until done.
func (s *Server) watch(l *live, input *activity, winch <-chan ssh.Window, done <-chan struct{}) {
	every := s.o.IdleCheck
	if every <= 0 {
		every = max(min(s.o.IdleTimeout/10, time.Minute), 10*time.Millisecond)
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case w, ok := <-winch:
			if !ok {
				winch = nil
				continue
			}
			l.program.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
		case <-tick.C:
			if idle := s.now().Sub(input.lastInput()); idle >= s.o.IdleTimeout {
				s.stop(l, fmt.Sprintf("no key was pressed for %s, the idle timeout", idle.Round(time.Second)))
			}
		}
	}
}

// activity is the session's input, noting when a key last came.
type activity struct {
	r    io.Reader
	now  func() time.Time
	last atomic.Int64
}

func (a *activity) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if n > 0 {
		a.last.Store(a.now().UnixNano())
	}
	return n, err
}

func (a *activity) lastInput() time.Time { return time.Unix(0, a.last.Load()) }

func shortID(id string) string {
	if len(id) > 10 {
		return id[:10]
	}
	return id
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
