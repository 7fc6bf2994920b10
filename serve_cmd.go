package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/approval"
	"paydash/backend/pagecache"
	"paydash/config"
	"paydash/serve"
	"paydash/team"
	"paydash/ui"
	"paydash/views"
	"paydash/views/tab"
)

// serveFlags are paydash serve's own flags, besides the dashboard's.
type serveFlags struct {
	addr, people, hostKey  string
	public                 bool
	approvalTTL, idle      time.Duration
	maxSessions, perPerson int
}

func (f *serveFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&f.addr, "addr", serve.DefaultAddr, "`HOST:PORT`")
	fs.BoolVar(&f.public, "public", false, "")
	fs.StringVar(&f.people, "people", "", "`PATH`")
	fs.StringVar(&f.hostKey, "host-key", "", "`PATH`")
	fs.DurationVar(&f.approvalTTL, "approval-ttl", approval.DefaultTTL, "`DURATION`")
	fs.DurationVar(&f.idle, "idle-timeout", serve.DefaultIdleTimeout, "`DURATION`")
	fs.IntVar(&f.maxSessions, "max-sessions", serve.DefaultMaxSessions, "`N`")
	fs.IntVar(&f.perPerson, "max-sessions-per-person", serve.DefaultMaxPerPerson, "`N`")
}

// runServe is paydash serve: the dashboard for a team, over SSH, on one
// session (backend, journal, known tokens) shared by everyone connected.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer, sys config.System) int {
	var f serveFlags
	s, err := config.LoadWith(args, sys, f.add)
	if errors.Is(err, config.ErrHelp) {
		io.WriteString(stdout, serveUsage)
		return 0
	}
	if err == nil {
		err = f.check()
	}
	if err != nil {
		fmt.Fprintf(stderr, "paydash serve: %v\n", err)
		return 2
	}
	people, err := team.Load(f.people)
	if err != nil {
		fmt.Fprintf(stderr, "paydash serve: %v\n", err)
		return 2
	}
	if f.hostKey == "" {
		f.hostKey = config.HostKeyPath(s.StateDir)
	}
	pem, made, err := serve.HostKey(f.hostKey)
	if err != nil {
		fmt.Fprintf(stderr, "paydash serve: %v\n", err)
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	if made {
		log.Info("made a new host key", "file", f.hostKey)
	}
	return serveSession(ctx, s, f, people, pem, log, stdout)
}

// check refuses what the flags cannot mean.
func (f *serveFlags) check() error {
	switch {
	case f.people == "":
		return config.Usagef("--people PATH is required: the people file says who may connect (see paydash serve --help)")
	case f.approvalTTL <= 0:
		return config.Usagef("--approval-ttl %s: give a positive duration, e.g. 1h", f.approvalTTL)
	case f.idle <= 0:
		return config.Usagef("--idle-timeout %s: give a positive duration, e.g. 30m", f.idle)
	case f.maxSessions <= 0 || f.perPerson <= 0:
		return config.Usagef("--max-sessions and --max-sessions-per-person must be at least 1")
	}
	if err := serve.CheckAddr(f.addr, f.public); err != nil {
		return config.Usagef("%v", err)
	}
	return nil
}

// logApprovalsOpened says what opening the approvals file did besides
// reading it: a monthly rollover, one a crash cut short, or one that
// failed (docs/approvals.md, "Rollover"), and the lines it could not read
// (skipped: the requests on them are lost to this server).
func logApprovalsOpened(log *slog.Logger, store *approval.Store) {
	o := store.Opened()
	if o.Archived != "" {
		log.Info("approvals rolled over", "archive", o.Archived)
	}
	if o.Recovered != "" {
		log.Warn("approvals: a rollover cut short was finished", "what", o.Recovered)
	}
	if o.RolloverErr != nil {
		log.Warn("approvals: the rollover that was due failed; the file goes on as it was, and the next start tries again",
			"error", o.RolloverErr.Error())
	}
	if bad := store.Damaged(); len(bad) > 0 {
		file := cmp.Or(o.Archived, store.Path()) // the line numbers are of the file read
		log.Warn("approvals: lines that could not be read were skipped; look at them in the file, and ask again for what they held",
			"lines", len(bad), "file", file, "first_line", bad[0].Line, "why", bad[0].Err)
	}
}

// serveSession opens the shared session and serves until a signal.
func serveSession(ctx context.Context, s config.Settings, f serveFlags, people *team.People, pem []byte, log *slog.Logger, stdout io.Writer) int {
	sess, err := openSession(ctx, s, time.Now())
	if err != nil {
		log.Error("the service could not be opened", "error", err.Error())
		return exitStatusOf(err)
	}
	defer sess.Close()
	store, err := approval.Open(config.ApprovalsPath(sess.journal.Path()),
		approval.Options{TTL: f.approvalTTL})
	if err != nil {
		log.Error("the approvals could not be opened; move what is there away, or give --journal PATH in another directory (the approvals file lives beside the journal)",
			"error", err.Error())
		return 1
	}
	defer store.Close()
	logApprovalsOpened(log, store)
	shared := &teamShared{sess: sess, people: team.NewDirectory(people), approvals: store, locks: team.NewLocks(),
		// Many people watching one merchant and period cost the service
		// about one person's list requests (docs/pagecache.md).
		lists: pagecache.New(sess.backend, pagecache.Options{Epoch: sess.refresh})}
	srv, err := serve.New(serve.Options{
		Addr: f.addr, Public: f.public, HostKeyPEM: pem, People: shared.people, Logger: log,
		IdleTimeout: f.idle, MaxSessions: f.maxSessions, MaxPerPerson: f.perPerson,
		Dashboard: shared.dashboard,
		Stop:      func(why string) tea.Msg { return ui.ShutdownMsg{Signal: why} },
	})
	if err != nil {
		log.Error("the server could not start", "error", err.Error())
		return 2
	}
	for _, w := range append(sess.warnings, noticeLines(sess.notices)...) {
		log.Warn(w)
	}
	findOutLeftOpen(ctx, &action.Runner{Backend: sess.backend, Journal: sess.journal}, sess.pending, store, shared.locks, log)
	l, err := net.Listen("tcp", f.addr)
	if err != nil {
		log.Error("cannot listen", "addr", f.addr, "error", err.Error())
		return 1
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	d := sess.backend.Describe()
	log.Info("serving", "addr", l.Addr().String(), "people", f.people, "service", d.BaseURL, "sandbox", d.Sandbox,
		"journal", sess.journal.Path(), "read_only", d.ReadOnly)
	_, port, _ := net.SplitHostPort(l.Addr().String())
	fmt.Fprintf(stdout, "paydash serve: listening on %s; connect with: ssh -p %s NAME@HOST\n", l.Addr(), port)
	return shared.until(ctx, srv, served, f.people, log)
}

// until serves until ctx ends (SIGINT, SIGTERM): SIGHUP reads the people
// file again, and requests past their time expire every few seconds.
func (sh *teamShared) until(ctx context.Context, srv *serve.Server, served <-chan error, peoplePath string, log *slog.Logger) int {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	expire := time.NewTicker(5 * time.Second)
	defer expire.Stop()
	for {
		select {
		case err := <-served:
			if err != nil {
				log.Error("serving stopped", "error", err.Error())
				return 1
			}
			return 0
		case <-hup:
			_ = srv.Reload(peoplePath) // logged, with its reason, by Reload
		case <-expire.C:
			for _, r := range sh.approvals.Expire() {
				log.Info("request expired", "request", r.ID, "requester", r.Requester)
			}
		case <-ctx.Done():
			log.Info("stopping: asking every session to quit")
			stop, cancel := context.WithTimeout(context.Background(), ui.QuitWait+5*time.Second)
			defer cancel()
			if err := srv.Shutdown(stop); err != nil {
				log.Warn("sessions did not end in time", "error", err.Error())
			}
			return 0
		}
	}
}

// noticeLines are the notices the single-user dashboard would show at
// start (actions left open on other services), as lines for the log.
func noticeLines(ns []ui.Notice) []string {
	out := make([]string, 0, len(ns))
	for _, n := range ns {
		out = append(out, n.Title+": "+n.Text)
	}
	return out
}

// exitStatusOf is 2 for bad input, else 1.
func exitStatusOf(err error) int {
	var ue *config.UsageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

// teamShared is what every session of paydash serve shares.
type teamShared struct {
	sess      *session
	people    *team.Directory
	approvals *approval.Store
	locks     *team.Locks
	lists     *pagecache.Backend // the shared backend, its list pages shared
}

// dashboard is one person's dashboard: their own tabs, shell and
// in-flight marks, on the shared backend, journal and known tokens.
func (sh *teamShared) dashboard(who serve.Session) (serve.Dashboard, error) {
	t := &tab.Team{Person: who.Person, Fingerprint: who.Fingerprint, People: sh.people,
		Approvals: sh.approvals, Locks: sh.locks}
	deps := sessionDeps(sh.sess)
	deps.Backend = personBackend{Backend: sh.lists, t: t}
	deps.Pending = nil // found out once, by the server (findOutLeftOpen), not by every session
	deps.DebugLog = nil
	deps.Team = t
	cfg := appConfig(sh.sess, views.TeamTabs(deps))
	cfg.Service = deps.Backend
	cfg.InTmux = false
	cfg.Warnings, cfg.Notices = nil, nil
	// A key's answer after a quiet moment is drawn at once
	// (third_party/bubbletea/PATCHES.md); one that follows another frame
	// within an interval waits for the next, so 120 frames a second,
	// Bubble Tea's most, keeps that wait at 8.3 ms, not the default 16.7
	// (docs/serve.md, "Speed").
	return serve.Dashboard{Model: ui.New(cfg), Close: t.Close, Options: []tea.ProgramOption{tea.WithFPS(120)}}, nil
}

// personBackend is the shared backend as one person may use it: reads as
// it allows, actions only as the person's role allows as well (a viewer
// sees every action greyed out with the reason). Read-only credentials
// and --read-only still win over any role.
type personBackend struct {
	backend.Backend
	t *tab.Team
}

func (b personBackend) Can(a backend.ActionName) (bool, string) {
	if ok, why := b.Backend.Can(a); !ok {
		return false, why
	}
	if !slices.Contains(backend.Actions, a) {
		return true, ""
	}
	return b.t.Can(a)
}

const serveUsage = `paydash serve: the dashboard for a support team, over SSH.

Usage:
  paydash serve --people PATH [flags]

Each person connects with: ssh -p 2222 NAME@HOST, with a key the people file
gives them, and gets their own dashboard at their terminal's size. Everyone
shares one service, one journal (each entry names the person, and the
approver of an approved action), one lock per object, and one approvals list.

Flags (besides every flag of paydash: --base-url, --ca-file, --config,
--journal, --log, --read-only, --merchant, --refresh):
  --people PATH        the people file (TOML): names, roles, keys and limits;
                       read again on SIGHUP (docs/team.md)
  --addr HOST:PORT     where to listen (default 127.0.0.1:2222)
  --public             allow an address other machines can reach
  --host-key PATH      the server's key, made (mode 600) on first start
                       (default: host_key in the state directory; see
                       paydash paths)
  --approval-ttl D     how long a request for approval waits (default 1h)
  --idle-timeout D     a session with no key pressed for D ends (default 30m)
  --max-sessions N     sessions at once, everyone's (default 100)
  --max-sessions-per-person N
                       sessions at once of one person (default 4)

Signals: SIGHUP reads the people file again (a person removed is
disconnected within seconds); SIGINT and SIGTERM stop the server, each
session quitting as q does.
`
