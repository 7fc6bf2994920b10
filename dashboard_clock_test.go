package main

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/sandbox"
	"paydash/config"
)

// The session hands the dashboard the service's clock: the sandbox's clock
// moved on 70 minutes is 70 minutes on for the dashboard too, whatever
// the laptop's says.
func TestSessionHasTheServicesClock(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds a sandbox")
	}
	old := sandboxOptions
	sandboxOptions = sandbox.Options{Seed: 1, Payments: 200}
	t.Cleanup(func() { sandboxOptions = old })

	ts := newTestSystem(t)
	s, err := config.Load(nil, ts.sys())
	require.NoError(t, err)
	sess, err := openSession(context.Background(), s, time.Now())
	require.NoError(t, err)
	defer sess.Close()
	require.NotNil(t, sess.serviceNow)

	_, err = sess.sandbox.Store().Advance(70 * time.Minute)
	require.NoError(t, err)
	require.NoError(t, sess.backend.Probe(context.Background()))
	assert.True(t, sess.serviceNow().After(time.Now().Add(69*time.Minute)),
		"the service's clock is 70 minutes on: %s", sess.serviceNow())
}
