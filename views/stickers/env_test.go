package stickers

import (
	"os"
	"testing"
	"time"

	"paydash/views/internal/viewtest"
	"paydash/views/payments"
)

func TestMain(m *testing.M) {
	// Times are shown in local time: pin it so the goldens do not depend
	// on the machine.
	time.Local = time.UTC
	viewtest.DefaultTab = payments.New // the tab of a test that names none
	os.Exit(m.Run())
}

// Env is a test's sandbox, backend, journal and tab (viewtest.Env), with
// the helpers of this package's tests as its methods.
type env struct{ *viewtest.Env }

type envOpts = viewtest.Opts

func newEnv(t *testing.T, o envOpts) *env { return &env{viewtest.New(t, o)} }
