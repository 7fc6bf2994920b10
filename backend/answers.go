package backend

import (
	"net/http"
	"sync/atomic"
	"time"

	"paydash/backend/transport"
)

// answers is what the adapter learns from every answer of the service,
// whichever interface carried it (both share one): the service's clock,
// from the answers' Date headers, and whether the service announced itself
// as a paydash sandbox (transport.SandboxHeader).
type answers struct {
	clock     *transport.ServiceClock
	announced atomic.Bool // sticky: one answer with the sandbox's word is enough
}

func newAnswers(local func() time.Time) *answers {
	return &answers{clock: transport.NewServiceClock(local)}
}

func (a *answers) see(h http.Header) {
	a.clock.Observe(h)
	if transport.AnnouncesSandbox(h) {
		a.announced.Store(true)
	}
}

// httpClient is the HTTP client an interface's client sends through: the
// one the clients would make themselves (cfg's CAs and timeout, idlePerHost
// idle connections), with every answer shown to a on its way in.
func (a *answers) httpClient(cfg Config, idlePerHost int) (*http.Client, error) {
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = transport.DefaultTimeout
	}
	hc, err := transport.NewHTTPClient(nil, cfg.RootCAs, timeout, idlePerHost)
	if err != nil {
		return nil, err
	}
	hc.Transport = transport.Watch(hc.Transport, a.see)
	return hc, nil
}

// describe is desc as the answers so far tell it: a sandbox when paydash
// started one (Config.Sandbox) or the service said it is one. Anything
// else is live: never a sandbox without the sandbox's own word.
func (a *answers) describe(desc Description) Description {
	desc.Sandbox = desc.Sandbox || a.announced.Load()
	return desc
}
