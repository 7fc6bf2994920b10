package ui

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/sandbox"
	"paydash/keys"
)

// liveDesc is a service that did not announce a sandbox: real money.
func liveDesc() backend.Description {
	return backend.Description{
		BaseURL: "https://pay.example.com", Host: "pay.example.com",
		Interfaces: []backend.Interface{backend.V2, backend.V1}, MerchantIDs: []string{"10000001", "10000002"},
	}
}

// goLive makes the test app's service a live one, as the start probe
// would find it.
func (ta *testApp) goLive() {
	ta.be.desc = liveDesc()
	ta.send(probeDoneMsg{})
}

// sgrAt is the SGR parameters drawn right before word in the raw view
// ("1", "7", ...), nil when word is drawn without a style of its own.
func sgrAt(raw, word string) []string {
	m := regexp.MustCompile(`((?:\x1b\[[0-9;:]*m)+)` + regexp.QuoteMeta(word)).FindStringSubmatch(raw)
	if m == nil {
		return nil
	}
	var params []string
	for _, seq := range regexp.MustCompile(`\x1b\[([0-9;:]*)m`).FindAllStringSubmatch(m[1], -1) {
		params = append(params, strings.Split(seq[1], ";")...)
	}
	return params
}

// On a live service the status bar says LIVE, in reverse video and bold
// so that it reads without colour; on a sandbox, "sandbox".
func TestStatusBarSaysLIVEOnALiveService(t *testing.T) {
	for name, opts := range map[string][]option{"NO_COLOR": nil, "colour": {withColour(true)}} {
		t.Run(name, func(t *testing.T) {
			ta := newTestApp(t, opts...)
			assert.Contains(t, statusLine(ta), " sandbox │")
			assert.NotContains(t, statusLine(ta), "LIVE")

			ta.goLive()
			bar := statusLine(ta)
			assert.True(t, strings.HasPrefix(bar, " LIVE │ pay.example.com │"), bar)
			assert.NotContains(t, bar, "sandbox")
			sgr := sgrAt(ta.View().Content, "LIVE")
			assert.Contains(t, sgr, "7", "reverse video: %q", sgr)
			assert.Contains(t, sgr, "1", "bold: %q", sgr)

			ta.be.desc.ReadOnly = true
			ta.send(probeDoneMsg{})
			assert.True(t, strings.HasPrefix(statusLine(ta), " LIVE read-only │"), statusLine(ta))
		})
	}
}

// LIVE is never dropped for room, however narrow the window.
func TestLIVEStaysInANarrowStatusBar(t *testing.T) {
	ta := newTestApp(t)
	ta.goLive()
	ta.send(tea.WindowSizeMsg{Width: MinWidth, Height: 24})
	ta.be.desc.ReadOnly = true
	ta.send(probeDoneMsg{})
	assert.True(t, strings.HasPrefix(statusLine(ta), " LIVE read-only │"), statusLine(ta))
}

func dialogTitle(t *testing.T, ta *testApp, contains string) string {
	t.Helper()
	for _, l := range splitLines(ta.screen()) {
		if strings.Contains(l, contains) {
			return strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "│"))
		}
	}
	t.Fatalf("no line with %q on the screen:\n%s", contains, ta.screen())
	return ""
}

// A money dialog on a live service says so again in its title; on a
// sandbox it does not.
func TestConfirmationTitleSaysLIVEOnALiveService(t *testing.T) {
	ta := newTestApp(t)
	ta.openConfirm(refundSpec(&confirmProbe{}))
	assert.Equal(t, "Refund payment 43149010", dialogTitle(t, ta, "Refund payment"))
	ta.press("esc")

	for name, opts := range map[string][]option{"NO_COLOR": nil, "colour": {withColour(true)}} {
		t.Run(name, func(t *testing.T) {
			ta := newTestApp(t, opts...)
			ta.goLive()
			ta.openConfirm(refundSpec(&confirmProbe{}))
			assert.Equal(t, "LIVE · Refund payment 43149010", dialogTitle(t, ta, "Refund payment"))
			// The dialog's LIVE is drawn as the status bar's.
			for _, line := range strings.Split(ta.View().Content, "\n") {
				if strings.Contains(ansi.Strip(line), "LIVE · Refund") {
					sgr := sgrAt(line, "LIVE")
					assert.True(t, slices.Contains(sgr, "7") && slices.Contains(sgr, "1"), "reverse and bold: %q", sgr)
				}
			}
		})
	}
}

// formThenConfirm is a dialog that becomes a confirmation on its first
// key, as a create form does once submitted (views/tab/create.go).
type formThenConfirm struct{ spec ConfirmSpec }

func (f *formThenConfirm) Context() keys.Context { return keys.ContextForm }
func (f *formThenConfirm) View(w, h int) string  { return Box(Theme{}, []string{"a form"}) }
func (f *formThenConfirm) Update(msg tea.Msg, now time.Time) (Modal, tea.Cmd, bool) {
	if _, ok := msg.(tea.KeyPressMsg); ok {
		return NewConfirm(f.spec, now, keys.Default(), Theme{}), nil, false
	}
	return f, nil, false
}

// A confirmation a dialog becomes says LIVE too.
func TestAConfirmationAFormBecomesSaysLIVE(t *testing.T) {
	ta := newTestApp(t)
	ta.goLive()
	ta.press("c")
	acts := msgsOf[ActionMsg](ta.tabs[0])
	require.NotEmpty(t, acts)
	spec := refundSpec(&confirmProbe{})
	spec.Title = "Create this invoice link?"
	ta.send(OpenDialogMsg{Ticket: acts[len(acts)-1].Ticket, Modal: &formThenConfirm{spec: spec}})
	ta.press("enter")
	assert.Equal(t, "LIVE · Create this invoice link?", dialogTitle(t, ta, "Create this"))
}

// withService puts a real backend behind the shell.
func withService(s Service) option { return func(c *Config) { c.Service = s } }

// The whole way, from the start probe to the status bar: a sandbox reached
// by URL shows "sandbox"; the same answers from a service that does not
// announce a sandbox show LIVE.
func TestStatusBarOfARealServiceAfterTheStartProbe(t *testing.T) {
	srv, err := sandbox.Start(t.Context(), sandbox.Options{Payments: 0})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	target, err := url.Parse(srv.BaseURL())
	require.NoError(t, err)
	plain := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite:   func(r *httputil.ProxyRequest) { r.SetURL(target) },
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: srv.CertPool()}},
		ModifyResponse: func(resp *http.Response) error {
			resp.Header.Del("Paydash-Sandbox")
			return nil
		},
	})
	t.Cleanup(plain.Close)

	for baseURL, want := range map[string]string{srv.BaseURL(): " sandbox │", plain.URL: " LIVE │"} {
		b, err := backend.Open(backend.Config{BaseURL: baseURL, RootCAs: srv.CertPool(),
			V2Token: srv.Info().V2Token, MerchantIDs: srv.Info().MerchantIDs})
		require.NoError(t, err)
		ta := newTestApp(t, withService(b))
		assert.True(t, strings.HasPrefix(statusLine(ta), " LIVE │"), "before the probe, no word: %s", statusLine(ta))
		ta.send(probeCmd(b)())
		assert.True(t, strings.HasPrefix(statusLine(ta), want), "%s: %s", baseURL, statusLine(ta))
	}
}
