package serve

import (
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"paydash/team"
)

// ctxPerson is where allowKey leaves the person a key belongs to.
type ctxPerson struct{}

// allowKey lets in a key of the people file, offered under its person's
// name (ssh NAME@host), and nothing else; every refusal is logged with the
// key's fingerprint, before any screen.
func (s *Server) allowKey(ctx ssh.Context, key ssh.PublicKey) bool {
	fp := team.Fingerprint(key)
	p, ok := s.o.People.Current().ByKey(key)
	switch {
	case !ok:
		s.log.Warn("key refused: not in the people file", "user", ctx.User(), "remote", remote(ctx), "key", fp)
		return false
	case p.Name != ctx.User():
		s.log.Warn("key refused: it is another person's", "user", ctx.User(), "remote", remote(ctx), "key", fp, "key_of", p.Name)
		return false
	}
	ctx.SetValue(ctxPerson{}, p.Name)
	return true
}

func remote(ctx ssh.Context) string {
	if a := ctx.RemoteAddr(); a != nil {
		return a.String()
	}
	return ""
}

// hasFingerprint reports whether fp is one of p's keys.
func hasFingerprint(p team.Person, fp string) bool {
	for _, k := range p.Keys {
		if team.Fingerprint(k) == fp {
			return true
		}
	}
	return false
}

// lockDown leaves the server a terminal service only: a shell request (no
// exec of a command, no subsystem such as sftp), no port forwarding in
// either direction (the server has no handler for it, which refuses it),
// and no agent forwarding.
func lockDown(srv *ssh.Server) {
	srv.SessionRequestCallback = func(_ ssh.Session, requestType string) bool {
		return requestType == "shell"
	}
	srv.SubsystemHandlers = nil
	srv.LocalPortForwardingCallback = nil
	srv.ReversePortForwardingCallback = nil
	srv.PasswordHandler = nil
	srv.KeyboardInteractiveHandler = nil
	srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": noAgentSession}
	srv.RequestHandlers = map[string]ssh.RequestHandler{}
}

// noAgentSession is the default session channel with every request for
// agent forwarding refused: the library accepts them (and would make an
// agent available to the session on request), paydash never wants one.
func noAgentSession(srv *ssh.Server, conn *gossh.ServerConn, newChan gossh.NewChannel, ctx ssh.Context) {
	ssh.DefaultSessionHandler(srv, conn, refuseAgent{newChan}, ctx)
}

// refuseAgent is a new session channel whose requests pass through a
// filter that answers "auth-agent-req@openssh.com" with no.
type refuseAgent struct{ gossh.NewChannel }

func (c refuseAgent) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := c.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	go func() {
		defer close(out)
		for r := range reqs {
			if r.Type == "auth-agent-req@openssh.com" {
				if r.WantReply {
					_ = r.Reply(false, nil)
				}
				continue
			}
			out <- r
		}
	}()
	return ch, out, nil
}
