package views

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
)

// holdingBackend holds payment reads, once holding is set, until their
// context ends: arrived is closed when the first reaches it, and ended
// gets its context's error.
type holdingBackend struct {
	backend.Backend
	holding atomic.Bool
	arrived chan struct{}
	ended   chan error
}

func (h *holdingBackend) GetPayment(ctx context.Context, id string) (backend.Payment, error) {
	if !h.holding.Load() {
		return h.Backend.GetPayment(ctx, id)
	}
	close(h.arrived)
	<-ctx.Done()
	h.ended <- ctx.Err()
	return backend.Payment{}, ctx.Err()
}

// esc on the preparing dialog (ui.CancelActionMsg) cancels the read behind
// it: the read ends, and its answer opens no confirmation, says nothing
// and sends nothing.
func TestGivingUpCancelsTheReadBeforeTheConfirmation(t *testing.T) {
	hold := &holdingBackend{arrived: make(chan struct{}), ended: make(chan error, 1)}
	e := startedEnv(t, viewtest.Opts{Changes: true, Wrap: func(b backend.Backend) backend.Backend { hold.Backend = b; return hold }}, 80, 24)
	e.HeldOrPaid(true, "700.00")
	e.Shell = nil

	hold.holding.Store(true)
	read := e.SendHold(ui.ActionMsg{Action: keys.ActCapture, Ticket: 7})
	require.NotNil(t, read, "the payment is read before its confirmation")
	answer := make(chan tea.Msg, 1)
	go func() { answer <- read() }()
	select {
	case <-hold.arrived:
	case <-time.After(viewtest.LongWait):
		t.Fatal("the read never reached the backend")
	}

	e.Send(ui.CancelActionMsg{Ticket: 6}) // another ticket's: not this read
	e.Send(ui.CancelActionMsg{Ticket: 7})
	select {
	case err := <-hold.ended:
		assert.ErrorIs(t, err, context.Canceled, "the read ends with the dialog")
	case <-time.After(viewtest.LongWait):
		t.Fatal("giving up did not end the read")
	}
	e.Send(<-answer)
	assert.Empty(t, e.Shell, "no confirmation, no refusal, no message")
	assert.Empty(t, e.Journal(), "nothing sent")
}
