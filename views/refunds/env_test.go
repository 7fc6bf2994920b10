package refunds

import (
	"testing"

	"paydash/views/internal/viewtest"
	"paydash/views/payments"
)

func TestMain(m *testing.M) { viewtest.Main(m, payments.New) }

// env is a test's sandbox, backend, journal and tab, with the helpers of
// this package's tests as its methods.
type env struct{ *viewtest.Env }

func newEnv(t *testing.T, o viewtest.Opts) *env { return &env{viewtest.New(t, o)} }

// startedEnv is newEnv with the tab sized w × h and started.
func startedEnv(t *testing.T, o viewtest.Opts, w, h int) *env {
	return &env{viewtest.New(t, o).Start(w, h)}
}
