package payments

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/sandbox"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

func TestCaptureHappyPath(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true}, 80, 24)
	held := e.HeldOrPaid(true, "1250.00")
	p := e.Tab.(*Payments)
	assert.Equal(t, "Capture payment "+held.ID, p.ActionTarget(keys.ActCapture), "the preparing dialog's title")

	e.Act(keys.ActCapture)
	spec, found := e.ConfirmSpec()
	require.True(t, found, "a confirmation is asked for")
	assert.Equal(t, "Capture payment "+held.ID, spec.Title)
	assert.Equal(t, "Capture", spec.Verb)
	assert.False(t, spec.Danger)
	lines := strings.Join(spec.Lines, "\n")
	for _, want := range []string{held.ID, "TEST-1250.00", "IP 10.1.2.3", "Authorized: 1,250.00 " + held.Amount.Currency, "v2"} {
		assert.Contains(t, lines, want)
	}
	require.NotNil(t, spec.Amount)
	assert.Equal(t, held.Amount, spec.Amount.Value)
	assert.Equal(t, held.Amount.Value, spec.Amount.Max)

	// Confirm a partial capture: from then on nothing else is sent on it.
	part := money.Amount{Value: money.MustParse("1000"), Currency: held.Amount.Currency}
	cmd := spec.Confirm(part)
	ok, why := e.Tab.Available(keys.ActCapture)
	assert.False(t, ok)
	assert.Equal(t, "the capture of 1,000.00 "+part.Currency+" for payment "+held.ID+" is being sent; wait for its answer", why)
	assert.Equal(t, 1, e.Tab.Status().Sending)
	assert.Contains(t, ansi.Strip(e.View(80, 24)), "→ capturing", "the row says so")
	e.Run(cmd)

	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, ui.ToastSuccess, ts[0].Level, ts[0].Text)
	assert.Equal(t, "Captured 1,000.00 "+part.Currency+" of payment "+held.ID+" — now Settled", ts[0].Text)
	assert.Zero(t, e.Tab.Status().Sending)
	row, _ := p.List.Table.Selected()
	assert.Equal(t, backend.PaymentSettled, row.Status)
	assert.Equal(t, part.Value, row.Amount.Value)
	got, err := e.Store().GetPayment(held.ID)
	require.NoError(t, err)
	assert.Equal(t, sandbox.PaymentSettled, got.Status)
	assert.Equal(t, part.Value, got.Captured)

	j := e.Journal()
	require.Len(t, j, 2)
	assert.Equal(t, journal.PhaseSent, j[0].Phase)
	assert.Equal(t, "capture", j[0].Action)
	assert.Equal(t, held.ID, j[0].ObjectID)
	assert.Equal(t, "1000.00", j[0].Amount)
	assert.Equal(t, part.Currency, j[0].Currency)
	assert.Equal(t, "v2", j[0].Interface)
	assert.NotEmpty(t, j[0].ActionID)
	assert.Equal(t, journal.PhaseDone, j[1].Phase)
	assert.Equal(t, j[0].ActionID, j[1].ActionID)
	assert.Equal(t, action.HowAnswered, j[1].How)

	ok, why = e.Tab.Available(keys.ActCapture)
	assert.False(t, ok)
	assert.Equal(t, "only an Authorized payment can be captured (this one is Settled)", why)
}

// A refusal is shown whole, with the service's reason and what to do, and
// stays above the status bar; it is not a toast that vanishes.
func TestCaptureRefusedIsShownWhole(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true}, 80, 24)
	held := e.HeldOrPaid(true, "500.00")
	e.Act(keys.ActCapture)
	spec, found := e.ConfirmSpec()
	require.True(t, found)
	_, err := e.Sandbox().Store().CapturePayment(held.ID, nil) // captured behind the tab's back
	require.NoError(t, err)

	e.Run(spec.Confirm(spec.Amount.Value))
	assert.Empty(t, e.Toasts())
	errs := e.Errors()
	require.Len(t, errs, 1)
	assert.True(t, errs[0].Sticky, "a refresh does not clear it")
	text := errs[0].Err.Error()
	assert.Contains(t, text, "Capture of 500.00 "+held.Amount.Currency+" for payment "+held.ID+" was refused: ")
	assert.Contains(t, text, "Settled", "the service's reason")
	assert.Contains(t, text, "invalid_operation", "and its code")
	assert.Equal(t, "refresh to see the current state", errs[0].Hint)
	j := e.Journal()
	require.Len(t, j, 2)
	assert.Equal(t, journal.PhaseFailed, j[1].Phase)
	assert.NotEmpty(t, j[1].Error)
}

func TestRefundPartialThenOverRefundRefused(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true}, 80, 24)
	paid := e.HeldOrPaid(false, "400.00")
	p := e.Tab.(*Payments)
	cur := paid.Amount.Currency

	e.Act(keys.ActRefund)
	spec, found := e.ConfirmSpec()
	require.True(t, found)
	assert.Equal(t, "Refund payment "+paid.ID, spec.Title)
	assert.Equal(t, "Refund", spec.Verb)
	assert.True(t, spec.Danger)
	lines := strings.Join(spec.Lines, "\n")
	assert.Contains(t, lines, "refunded so far: 0.00 "+cur+" · left: 400.00 "+cur)
	assert.Contains(t, lines, "IP 10.1.2.3", "the v1 view is not configured: the customer is the IP")
	assert.Equal(t, money.MustParse("400"), spec.Amount.Value.Value)
	assert.Equal(t, money.MustParse("400"), spec.Amount.Max)

	part := money.Amount{Value: money.MustParse("150"), Currency: cur}
	e.Run(spec.Confirm(part))
	made, err := e.Store().RefundsOfPayment(paid.ID)
	require.NoError(t, err)
	require.Len(t, made, 1)
	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, "Refund "+made[0].ID+" of 150.00 "+cur+" made for payment "+paid.ID+" — Pending", ts[0].Text)
	j := e.Journal()
	require.Len(t, j, 2)
	assert.Equal(t, "refund", j[0].Action)
	assert.NotEmpty(t, j[0].IdempotencyKey)
	assert.Equal(t, j[0].IdempotencyKey, j[1].IdempotencyKey)
	assert.Contains(t, j[1].Result, made[0].ID)

	// Again, from the detail pane: 250.00 left.
	e.Press("enter")
	require.True(t, p.Pane.IsOpen())
	assert.Contains(t, ansi.Strip(e.View(100, 60)), made[0].ID)
	e.Act(keys.ActRefund)
	spec, found = e.ConfirmSpec()
	require.True(t, found)
	assert.Equal(t, money.MustParse("250"), spec.Amount.Value.Value)

	// Someone else refunds 100.00 meanwhile: 250.00 is now too much.
	other := money.Amount{Value: money.MustParse("100"), Currency: cur}
	_, err = e.Sandbox().Store().CreateRefund(sandbox.RefundRequest{PaymentID: paid.ID, Amount: &other})
	require.NoError(t, err)
	e.Run(spec.Confirm(spec.Amount.Value))
	errs := e.Errors()
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Err.Error(), "Refund of 250.00 "+cur+" for payment "+paid.ID+" was refused: ")
	assert.Contains(t, errs[0].Err.Error(), "more than remains")
	j = e.Journal()
	require.Len(t, j, 4)
	assert.Equal(t, journal.PhaseFailed, j[3].Phase)
	assert.NotEqual(t, j[0].IdempotencyKey, j[2].IdempotencyKey, "a new refund has a new key")
	made, _ = e.Store().RefundsOfPayment(paid.ID)
	assert.Len(t, made, 2, "no refund was made by the refused one")
}

func TestCancelHoldNamesTheHoldItReleases(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true}, 80, 24)
	held := e.HeldOrPaid(true, "60.00")
	e.Act(keys.ActCancelHold)
	spec, found := e.ConfirmSpec()
	require.True(t, found)
	assert.Equal(t, "Release", spec.Verb)
	assert.True(t, spec.Danger)
	assert.Nil(t, spec.Amount)
	require.NotNil(t, spec.Fixed)
	assert.Equal(t, held.Amount, *spec.Fixed, "the button names the hold")
	e.Run(spec.Confirm(*spec.Fixed))
	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, "Released the hold of 60.00 "+held.Amount.Currency+" on payment "+held.ID+" — now Cancelled", ts[0].Text)
	j := e.Journal()
	require.Len(t, j, 2)
	assert.Equal(t, "cancel_hold", j[0].Action)
	assert.Equal(t, "60.00", j[0].Amount)
	got, _ := e.Store().GetPayment(held.ID)
	assert.Equal(t, sandbox.PaymentCancelled, got.Status)
}

func TestJournalFailureSendsNothing(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true}, 80, 24)
	held := e.HeldOrPaid(true, "70.00")
	e.Act(keys.ActCapture)
	spec, found := e.ConfirmSpec()
	require.True(t, found)
	require.NoError(t, e.J.Close()) // the journal cannot be written any more
	e.Run(spec.Confirm(spec.Amount.Value))
	errs := e.Errors()
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Err.Error(), "was not sent: the journal could not record the action first")
	assert.Equal(t, "nothing was sent; make the journal writable (see the error), then try again", errs[0].Hint,
		"the error says what to do")
	got, err := e.Store().GetPayment(held.ID)
	require.NoError(t, err)
	assert.Equal(t, sandbox.PaymentAuthorized, got.Status, "nothing was sent")
	assert.Empty(t, e.Journal())
}

// A reported bug: "c then e 2000 enter y" under latency opened the dialog over
// the Refunds tab, for a row the cursor had left. The dialog is for the
// payment the key was pressed on, whatever happens to the list meanwhile.
func TestTheDialogStaysBoundToThePaymentOfTheKey(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true}, 80, 24)
	held := e.HeldOrPaid(true, "90.00")
	e.Ticket++
	prepare := e.SendHold(ui.ActionMsg{Action: keys.ActCapture, Ticket: e.Ticket})
	// The list moves on before the answer: another row, a refresh, a new
	// scope.
	e.Press("j", "j")
	e.Send(ui.RefreshMsg{Manual: true})
	e.Send(ui.ScopeMsg{Scope: e.Scope})
	e.Run(prepare)
	spec, found := e.ConfirmSpec()
	require.True(t, found)
	assert.Equal(t, "Capture payment "+held.ID, spec.Title)
	e.Run(spec.Confirm(spec.Amount.Value))
	got, _ := e.Store().GetPayment(held.ID)
	assert.Equal(t, sandbox.PaymentSettled, got.Status, "the payment the dialog named was captured")
	assert.Equal(t, held.ID, e.Journal()[0].ObjectID)
}

func TestPreparationRefusesWithTheReason(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true}, 80, 24)
	held := e.HeldOrPaid(true, "80.00")
	ticket := e.Ticket + 1
	prepare := e.SendHold(ui.ActionMsg{Action: keys.ActCapture, Ticket: ticket})
	e.Ticket = ticket
	_, err := e.Sandbox().Store().CancelPayment(held.ID) // it moved before the dialog could open
	require.NoError(t, err)
	e.Run(prepare)
	_, found := e.ConfirmSpec()
	assert.False(t, found)
	r := e.Refused()
	require.Len(t, r, 1)
	assert.Equal(t, ticket, r[0].Ticket)
	assert.Equal(t, "only an Authorized payment can be captured (this one is Cancelled)", r[0].Text)

	// A payment that cannot be read: the preparation says why.
	e.Count.Fail.Store(0)
	srvClosed := startedEnv(t, viewtest.Opts{Changes: true}, 80, 24)
	srvClosed.HeldOrPaid(true, "10.00")
	require.NoError(t, srvClosed.Sandbox().Close())
	srvClosed.Act(keys.ActCapture)
	r = srvClosed.Refused()
	require.Len(t, r, 1)
	assert.Equal(t, ui.ToastError, r[0].Level)
	assert.Contains(t, r[0].Text, "Could not read payment")
	assert.NotContains(t, r[0].Text, "token", "an unreachable service does not blame the token")
	assert.NotContains(t, r[0].Text, "duplicate")
}

// lossyBackend loses answers: the action is done at the service (when
// done is set) but the tab hears nothing usable back.
type lossyBackend struct {
	backend.Backend
	mu   sync.Mutex
	lose int  // answers still to lose
	do   bool // the lost requests reach the service
}

func (l *lossyBackend) losing() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lose > 0 {
		l.lose--
		return true
	}
	return false
}

var garbled = &backend.Error{Kind: backend.KindMalformed, Op: "refund", Message: "the answer was cut in half"}

func (l *lossyBackend) RefundPayment(ctx context.Context, r backend.RefundRequest) (backend.Refund, error) {
	if !l.losing() {
		return l.Backend.RefundPayment(ctx, r)
	}
	if l.do {
		_, _ = l.Backend.RefundPayment(ctx, r)
	}
	return backend.Refund{}, garbled
}

func (l *lossyBackend) CapturePayment(ctx context.Context, r backend.CaptureRequest) (backend.Payment, error) {
	if !l.losing() {
		return l.Backend.CapturePayment(ctx, r)
	}
	if l.do {
		_, _ = l.Backend.CapturePayment(ctx, r)
	}
	return backend.Payment{}, &backend.Error{Kind: backend.KindUnavailable, Op: "capture", Message: "connection reset"}
}

// A reported bug: "When the answer to a refund is garbled or lost, the toast says
// failed and the journal records failed, though the service made the
// refund." Now it is "outcome unknown — checking", and then what the
// service really did.
func TestALostRefundAnswerIsFoundOutNotFailed(t *testing.T) {
	t.Parallel()
	for _, iface := range []string{"v2", "v1"} {
		t.Run(iface, func(t *testing.T) {
			lossy := &lossyBackend{lose: 1, do: true}
			e := startedEnv(t, viewtest.Opts{Changes: true, V1Only: iface == "v1", Wrap: func(b backend.Backend) backend.Backend {
				lossy.Backend = b
				return lossy
			}}, 80, 24)
			paid := e.HeldOrPaid(false, "500.00")
			e.Act(keys.ActRefund)
			spec, found := e.ConfirmSpec()
			require.True(t, found)

			// Hold the checks back to look at the state in between.
			confirmCmd := spec.Confirm(spec.Amount.Value)
			msg := confirmCmd()
			due := e.SendHold(msg)
			p := e.Tab.(*Payments)
			assert.Equal(t, 1, e.Tab.Status().Checking)
			assert.Contains(t, ansi.Strip(e.View(100, 24)), "? checking", "the row says so")
			ok, why := e.Tab.Available(keys.ActRefund)
			assert.False(t, ok, "a retry while the outcome is unknown is refused")
			assert.Contains(t, why, "is not known yet; paydash is finding it out")
			e.Run(due)

			made, err := e.Store().RefundsOfPayment(paid.ID)
			require.NoError(t, err)
			require.Len(t, made, 1, "exactly one refund: the check never makes a second")
			ts := e.Toasts()
			require.Len(t, ts, 2)
			assert.Equal(t, ui.ToastWarning, ts[0].Level)
			assert.Contains(t, ts[0].Text, "Refund of 500.00 "+paid.Amount.Currency+" for payment "+paid.ID+": outcome unknown — checking")
			assert.NotContains(t, ts[0].Text, "failed")
			assert.Equal(t, ui.ToastSuccess, ts[1].Level)
			assert.Equal(t, "Refund "+made[0].ID+" of 500.00 "+paid.Amount.Currency+" made for payment "+paid.ID+" — "+
				string(made[0].Status), ts[1].Text)
			assert.Empty(t, e.Errors(), "never shown as a failure")
			assert.Zero(t, e.Tab.Status().Checking)
			assert.Empty(t, p.Acts.Mine)

			phases := []string{}
			for _, l := range e.Journal() {
				phases = append(phases, l.Phase)
			}
			assert.Equal(t, []string{journal.PhaseSent, journal.PhaseUnknown, journal.PhaseDone}, phases)
			last := e.Journal()[2]
			if iface == "v2" {
				assert.Equal(t, action.HowAskedAgain, last.How)
			} else {
				assert.Equal(t, action.HowLookedUp, last.How)
			}
		})
	}
}

// A v1 refund whose request never reached the service: the lookup by
// externalID finds nothing, and that is what the user is told — it was
// not made (and may be sent again).
func TestALostV1RefundThatWasNotMadeIsSaidSo(t *testing.T) {
	t.Parallel()
	lossy := &lossyBackend{lose: 1, do: false}
	e := startedEnv(t, viewtest.Opts{Changes: true, V1Only: true, Wrap: func(b backend.Backend) backend.Backend {
		lossy.Backend = b
		return lossy
	}}, 80, 24)
	paid := e.HeldOrPaid(false, "300.00")
	e.Act(keys.ActRefund)
	spec, _ := e.ConfirmSpec()
	e.Run(spec.Confirm(spec.Amount.Value))
	made, _ := e.Store().RefundsOfPayment(paid.ID)
	assert.Empty(t, made)
	errs := e.Errors()
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Err.Error(), "was not made: no refund carries its externalID")
	ok, _ := e.Tab.Available(keys.ActRefund)
	assert.True(t, ok, "known not made: it may be sent again")
}

func TestALostCaptureAnswerIsFoundOutByReadingThePayment(t *testing.T) {
	t.Parallel()
	lossy := &lossyBackend{lose: 1, do: true}
	e := startedEnv(t, viewtest.Opts{Changes: true, Wrap: func(b backend.Backend) backend.Backend { lossy.Backend = b; return lossy }}, 80, 24)
	held := e.HeldOrPaid(true, "120.00")
	e.Act(keys.ActCapture)
	spec, _ := e.ConfirmSpec()
	e.Run(spec.Confirm(spec.Amount.Value))
	ts := e.Toasts()
	require.Len(t, ts, 2)
	assert.Contains(t, ts[0].Text, "outcome unknown — checking")
	assert.Equal(t, "Captured 120.00 "+held.Amount.Currency+" of payment "+held.ID+" — now Settled", ts[1].Text)
	j := e.Journal()
	assert.Equal(t, action.HowReadPayment, j[len(j)-1].How)
	assert.Equal(t, []int{0}, e.Checks, "one check, timed by Deps.CheckAfter")
}

// Without Deps.CheckAfter the checks of an unknown outcome start after two
// seconds and double up to a minute.
func TestChecksOfAnUnknownOutcomeBackOff(t *testing.T) {
	t.Parallel()
	want := []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 32 * time.Second, time.Minute, time.Minute, time.Minute}
	for tries, d := range want {
		assert.Equal(t, d, tab.CheckAfter(tries), "before check %d", tries+1)
	}
	k := tab.NewTracker(tab.Deps{}, nil)
	assert.Equal(t, 2*time.Second, k.CheckAfter(0), "the default when Deps has none")
	k = tab.NewTracker(tab.Deps{CheckAfter: viewtest.NoCheckWait}, nil)
	assert.Zero(t, k.CheckAfter(0), "Deps.CheckAfter when given")
}

// Actions an earlier run left without an outcome are found out at start:
// a notice lists them as they are found out, the journal gets the final
// line, and nothing is sent on those payments meanwhile.
func TestPendingActionsAreFoundOutAtStart(t *testing.T) {
	t.Parallel()
	// The first run: a refund made at the service, its answer never read;
	// a capture sent but never arrived. The service's clock stands still,
	// so the refund's status is the same when it is found out and when the
	// test reads it (on the real clock it settles after a moment).
	first := startedEnv(t, viewtest.Opts{Changes: true, Fixed: viewtest.GoldenNow}, 80, 24)
	paid := first.NewPayment(false, "700.00")
	held := first.NewPayment(true, "55.00")
	refund := action.New(backend.ActionRefund, paid.ID, paid.Amount, backend.V2)
	refund.Sent = time.Now()
	_, err := first.B.RefundPayment(context.Background(), backend.RefundRequest{
		PaymentID: paid.ID, Amount: paid.Amount, IdempotencyKey: refund.IdempotencyKey})
	require.NoError(t, err)
	capture := action.New(backend.ActionCapture, held.ID, held.Amount, backend.V2)
	capture.Sent = time.Now()

	// The next start, on the same service.
	e := newEnvOn(t, first, viewtest.Opts{Changes: true, Pending: []action.Request{refund, capture}})
	e.Size(80, 24)
	for _, id := range []string{paid.ID, held.ID} {
		p := backend.Payment{ID: id, Status: backend.PaymentSettled}
		if id == held.ID {
			p.Status = backend.PaymentAuthorized
		}
		ok, why := e.Tab.(*Payments).availableFor(keys.ActRefund, p)
		if id == held.ID {
			ok, why = e.Tab.(*Payments).availableFor(keys.ActCapture, p)
		}
		assert.False(t, ok, "before it is found out, nothing is sent on %s", id)
		assert.Contains(t, why, "is not known yet")
	}
	e.Init()
	ns := e.Notices()
	byID := map[string][]ui.Notice{}
	for _, n := range ns {
		assert.Equal(t, tab.NoticeTitle, n.Title)
		byID[n.ID] = append(byID[n.ID], n)
	}
	require.Len(t, byID[refund.ID], 2, "checking…, then what became of it")
	assert.Contains(t, byID[refund.ID][0].Text, "finding out what became of it")
	made, _ := e.Store().RefundsOfPayment(paid.ID)
	require.Len(t, made, 1, "still exactly one refund")
	assert.Equal(t, "Refund "+made[0].ID+" of 700.00 "+paid.Amount.Currency+" made for payment "+paid.ID+" — "+
		string(made[0].Status), byID[refund.ID][1].Text)
	require.Len(t, byID[capture.ID], 2)
	assert.Equal(t, "Capture of 55.00 "+held.Amount.Currency+" for payment "+held.ID+" was not made: the payment is still Authorized",
		byID[capture.ID][1].Text)
	assert.Empty(t, e.Errors(), "an action of the last run that was not made is news, not an error")

	j := e.Journal()
	require.Len(t, j, 2)
	assert.Equal(t, refund.ID, j[0].ActionID)
	assert.Equal(t, journal.PhaseDone, j[0].Phase)
	assert.Equal(t, capture.ID, j[1].ActionID)
	assert.Equal(t, journal.PhaseFailed, j[1].Phase)
	assert.Empty(t, action.Pending(append(sentLines(refund, capture), j...)), "nothing is left open")
	assert.Zero(t, e.Tab.Status().Checking)
}

// AbandonMsg: paydash stops before the answer came; the action is
// journaled as abandoned, and the next start finds it out.
func TestAbandonJournalsActionsStillSent(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	slow := &slowBackend{release: hold, arrived: make(chan struct{})}
	e := startedEnv(t, viewtest.Opts{Changes: true, Wrap: func(b backend.Backend) backend.Backend { slow.Backend = b; return slow }}, 80, 24)
	paid := e.HeldOrPaid(false, "40.00")
	e.Act(keys.ActRefund)
	spec, _ := e.ConfirmSpec()
	send := spec.Confirm(spec.Amount.Value)
	done := make(chan struct{})
	go func() { send(); close(done) }()
	// The refund reaches the backend after its sent line is journaled:
	// the action is under way.
	select {
	case <-slow.arrived:
	case <-time.After(viewtest.LongWait):
		t.Fatal("the refund never reached the backend")
	}
	require.Len(t, e.Journal(), 1, "sent")
	e.Send(ui.AbandonMsg{})
	j := e.Journal()
	require.Len(t, j, 2)
	assert.Equal(t, journal.PhaseAbandoned, j[1].Phase)
	assert.Equal(t, j[0].ActionID, j[1].ActionID)
	pending := action.Pending(j)
	require.Len(t, pending, 1, "the next start finds it out")
	assert.Equal(t, paid.ID, pending[0].ObjectID)
	close(hold)
	<-done
}

// slowBackend holds refunds until release is closed, closing arrived
// when the first one reaches it.
type slowBackend struct {
	backend.Backend
	release chan struct{}
	arrived chan struct{}
	once    sync.Once
}

func (s *slowBackend) RefundPayment(ctx context.Context, r backend.RefundRequest) (backend.Refund, error) {
	s.once.Do(func() { close(s.arrived) })
	<-s.release
	return s.Backend.RefundPayment(ctx, r)
}

// Above confirm_typed_over the dialog asks for the payment id's last
// digits.
func TestLargeAmountsAskForTypedDigits(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true, TypedOver: map[string]money.Decimal{"*": money.MustParse("100")}}, 80, 24)
	paid := e.HeldOrPaid(false, "250.00")
	e.Act(keys.ActRefund)
	spec, _ := e.ConfirmSpec()
	require.NotNil(t, spec.Check)
	assert.Equal(t, money.MustParse("100"), spec.Check.Over)
	assert.Equal(t, paid.ID[len(paid.ID)-4:], spec.Check.Digits)
	assert.Equal(t, "payment "+paid.ID, spec.Check.Of)

	small := startedEnv(t, viewtest.Opts{Changes: true, TypedOver: map[string]money.Decimal{"USD": money.MustParse("1")}}, 80, 24)
	small.HeldOrPaid(false, "250.00")
	small.Act(keys.ActRefund)
	spec, _ = small.ConfirmSpec()
	assert.Nil(t, spec.Check, "no threshold for this currency")
}

// newEnvOn is a new start of the Payments tab on base's sandbox, with a
// journal of its own: what the next run of paydash sees.
func newEnvOn(t *testing.T, base *env, o viewtest.Opts) *env {
	t.Helper()
	jpath := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(jpath)
	require.NoError(t, err)
	t.Cleanup(func() { _ = j.Close() })
	e := &env{base.Another(t, nil)}
	e.J, e.Jpath = j, jpath
	e.Tab = New(tab.Deps{Backend: base.Count, Keys: keys.Default(), Journal: j, Now: base.Now,
		Theme: ui.NewTheme(true, true), Pending: o.Pending, TypedOver: o.TypedOver, CheckAfter: viewtest.NoCheckWait})
	return e
}

// sentLines are the journal's sent lines of reqs, as the run that sent
// them wrote them.
func sentLines(reqs ...action.Request) []journal.Entry {
	var out []journal.Entry
	for _, r := range reqs {
		out = append(out, journal.Entry{Time: r.Sent, Action: string(r.Kind), Phase: journal.PhaseSent, ObjectID: r.ObjectID,
			Amount: r.Amount.Value.StringFixed(money.Decimals(r.Amount.Currency)), Currency: r.Amount.Currency,
			Interface: string(r.Interface), IdempotencyKey: r.IdempotencyKey, ActionID: r.ID})
	}
	return out
}

// reportsFinerRefund is a service that reports a refund finer than the
// currency's minor unit (an older sandbox took 0.011 RUB), so that what is
// left has more decimals than the currency: 83.00 − 0.011 = 82.989.
type reportsFinerRefund struct {
	backend.Backend
	extra money.Decimal
}

func (r *reportsFinerRefund) RefundsOfPayment(ctx context.Context, p backend.Payment) ([]backend.Refund, error) {
	rs, err := r.Backend.RefundsOfPayment(ctx, p)
	if err != nil {
		return nil, err
	}
	return append(rs, backend.Refund{ID: "R-FINE", PaymentID: p.ID, Status: backend.RefundSuccess,
		Amount: money.Amount{Value: r.extra, Currency: p.Amount.Currency}}), nil
}

// Whatever remainder the service reports is shown whole and taken as it
// is: the refund dialog prefills 82.989, names it on its button, and y
// sends exactly that.
func TestRefundOfARemainderFinerThanTheCurrency(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true, Wrap: func(b backend.Backend) backend.Backend {
		return &reportsFinerRefund{Backend: b, extra: money.MustParse("0.011")}
	}}, 80, 24)
	paid := e.HeldOrPaid(false, "83.00")
	cur := paid.Amount.Currency
	e.Act(keys.ActRefund)
	spec, found := e.ConfirmSpec()
	require.True(t, found, "a confirmation, not a refusal")
	left := money.Amount{Value: money.MustParse("82.989"), Currency: cur}
	require.NotNil(t, spec.Amount)
	assert.Equal(t, left, spec.Amount.Value, "the prefill is the remainder as reported")
	assert.Equal(t, left.Value, spec.Amount.Max)
	assert.Contains(t, strings.Join(spec.Lines, "\n"), "refunded so far: 0.011 "+cur+" · left: 82.989 "+cur)

	var sent []money.Amount
	spec.Confirm = func(a money.Amount) tea.Cmd { sent = append(sent, a); return nil }
	opened := e.Now()
	c := ui.NewConfirm(spec, opened, keys.Default(), ui.NewTheme(true, true))
	screen := strings.Join(strings.Fields(ansi.Strip(c.View(76, 21))), " ")
	assert.Contains(t, screen, "[82.989 ")
	assert.Contains(t, screen, "Refund 82.989 "+cur)
	assert.NotContains(t, screen, "✗", "no complaint about its decimals")
	_, _, closed := c.Update(viewtest.KeyPress("y"), opened.Add(ui.ConfirmGuard))
	assert.True(t, closed)
	assert.Equal(t, []money.Amount{left}, sent)
}
