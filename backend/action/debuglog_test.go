package action_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/debuglog"
)

// An action's debug log line names its kind, object id, amount and
// outcome, never the token or the password the backend was opened with.
func TestSendWritesTheDebugLog(t *testing.T) {
	srv := startSandbox(t)
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			f := newFixture(t, srv, s)
			var buf bytes.Buffer
			f.run.Debug = debuglog.New(&buf, nil)
			hold := f.pay("500", true)
			_, o := f.run.Send(context.Background(), action.New(backend.ActionCapture, hold, rub("300"), f.via))
			require.Equal(t, action.Done, o.State, "%v", o.Err)
			require.NoError(t, f.run.Debug.Close())
			got := buf.String()
			assert.Contains(t, got, " action kind="+string(backend.ActionCapture)+" id="+hold+" amount=300 currency=RUB outcome=done")
			info := srv.Info()
			assert.NotContains(t, got, info.V2Token)
			for _, u := range info.V1Users {
				assert.NotContains(t, got, u.Password)
			}
		})
	}
}
