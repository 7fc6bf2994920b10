package action

import (
	"fmt"
	"strings"

	"paydash/backend"
	"paydash/backend/journal"
	"paydash/backend/textsafe"
)

// ServicesOf is the service cfg reaches, once for each interface it
// configures, the carrier of actions (Carrier: v2 when configured) first:
// what the journal is opened for (journal.Options.Services). The
// credentials enter only as a fingerprint (journal.Fingerprint).
func ServicesOf(cfg backend.Config) []journal.Service {
	var out []journal.Service
	if cfg.V2Token != "" {
		out = append(out, journal.NewService(cfg.BaseURL, string(backend.V2), cfg.Sandbox, cfg.V2Token))
	}
	if cfg.V1Login != "" || cfg.V1Password != "" {
		out = append(out, journal.NewService(cfg.BaseURL, string(backend.V1), cfg.Sandbox, cfg.V1Login, cfg.V1Password))
	}
	return out
}

// Elsewhere are open actions that were sent to a service other than the
// one configured now (or that name none): listed at start, never checked
// or sent again from here, since asking another service about them could
// make them there a second time (a refund, a link) and take its answer for
// theirs.
type Elsewhere struct {
	// Service is where they were sent: zero for the lines of an older
	// paydash, which named no service; {Embedded: true} alone for those
	// of every earlier run's embedded sandbox, taken together.
	Service  journal.Service
	Requests []Request
	// Text is the warning for people, e.g. "2 actions left open on
	// https://other-host — not checked here; start paydash against that
	// service to check them: refund of 100.00 RUB for payment 43149010, …".
	Text string
}

// PendingHere is Pending, split by service: mine are the open actions
// sent to one of here (the services the journal is opened for: same
// origin, interface and credentials), to be found out now; elsewhere the
// others, by service, in the order they first appear. An action sent
// through an interface not configured now is elsewhere too: it is found
// out only through the interface that carried it.
func PendingHere(entries []journal.Entry, here []journal.Service) (mine []Request, elsewhere []Elsewhere) {
	at := map[journal.Service]int{}
	for _, req := range Pending(entries) {
		s := req.Service
		if !s.IsZero() && contains(here, s) {
			mine = append(mine, req)
			continue
		}
		if s.Embedded {
			s = journal.Service{Embedded: true}
		}
		i, ok := at[s]
		if !ok {
			i = len(elsewhere)
			at[s] = i
			elsewhere = append(elsewhere, Elsewhere{Service: s})
		}
		elsewhere[i].Requests = append(elsewhere[i].Requests, req)
	}
	for i := range elsewhere {
		elsewhere[i].Text = elsewhereText(elsewhere[i], here)
	}
	return mine, elsewhere
}

func contains(here []journal.Service, s journal.Service) bool {
	for _, h := range here {
		if h == s {
			return true
		}
	}
	return false
}

// listed is how many actions a warning names; it counts the rest.
const listed = 3

func elsewhereText(e Elsewhere, here []journal.Service) string {
	n := len(e.Requests)
	count, them := fmt.Sprintf("%d actions", n), "them"
	if n == 1 {
		count, them = "1 action", "it"
	}
	s := e.Service
	origin := textsafe.Line(s.Origin, 200)
	iface := textsafe.Line(s.Interface, 20)
	sameOrigin, sameIface := false, false
	for _, h := range here {
		if h.Origin == s.Origin {
			sameOrigin = true
			sameIface = sameIface || h.Interface == s.Interface
		}
	}
	var text string
	switch {
	case s.IsZero():
		text = count + " left open by an older paydash, which did not note the service it sent " + them + " to — not checked here; check " + them + " by hand"
	case s.Embedded:
		text = count + " left open on the embedded sandbox of an earlier run — not checked here: that sandbox ended with its run"
	case !sameOrigin:
		text = count + " left open on " + origin + " — not checked here; start paydash against that service to check " + them
	case !sameIface:
		text = count + " left open on " + origin + " through " + iface + ", which is not configured now — not checked here; start paydash with its " +
			iface + " credentials to check " + them
	default:
		text = count + " left open on " + origin + " under other " + iface + " credentials — not checked here; start paydash with those credentials to check " + them
	}
	var names []string
	for i, req := range e.Requests {
		if i == listed {
			names = append(names, fmt.Sprintf("and %d more", n-listed))
			break
		}
		names = append(names, Describe(req))
	}
	return text + ": " + strings.Join(names, ", ")
}
