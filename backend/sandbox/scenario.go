package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	rnd "math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Failure scenarios: a tester makes something go wrong for a while, to see
// a UI react (POST /_sandbox/scenario, doc.go). A scenario has a window of
// the store clock, [From, Until), starting when it is set, and a rate:
//
//   - decline_spike: a payment begun in the window (made by the API or an
//     arrival, or an invoice paid on its page) is declined at once with
//     ResultCode, whatever its card or method would have done;
//   - confirmation_stall: a payment begun in the window that asks for a
//     confirmation (3-D Secure, SmsOtp, SBP) stays in Confirmation: the
//     payer's answer is accepted and changes nothing, as when the issuer's
//     page never answers;
//   - refund_delay: a refund made in the window stays Pending until the
//     window ends (or its usual settle time, if later), and settles at the
//     first due check after that.
//
// Which objects a scenario picks is a pure function of the store's seed,
// the scenario's number since the seed (or the last reset) and the
// object's id, so a test counts the same on every run, whatever else is
// made meanwhile. Several scenarios may be active at once; the first
// decline_spike set that picks a payment gives its code. A reset forgets
// them all (they live in storeData).

// Scenario kinds.
const (
	ScenarioDeclineSpike      = "decline_spike"
	ScenarioConfirmationStall = "confirmation_stall"
	ScenarioRefundDelay       = "refund_delay"
)

// MaxScenario is the longest window of a scenario.
const MaxScenario = 7 * 24 * time.Hour

var (
	scenarioKinds   = []string{ScenarioDeclineSpike, ScenarioConfirmationStall, ScenarioRefundDelay}
	maxScenarioText = fmt.Sprintf("%s (%d days)", MaxScenario, MaxScenario/(24*time.Hour))
)

// defaultDeclineCode is a decline_spike's result code when none is given.
const defaultDeclineCode = "TransactionDeclined"

// ScenarioRequest asks for a scenario: Rate in (0, 1], Duration in
// (0, MaxScenario]; ResultCode only for a decline_spike ("" is
// TransactionDeclined), one of DeclineCodes.
type ScenarioRequest struct {
	Kind       string
	ResultCode string
	Rate       float64
	Duration   time.Duration
}

// Scenario is a scenario set: its window on the store clock and its rate.
type Scenario struct {
	Kind        string
	From, Until time.Time
	Rate        float64
	ResultCode  string // decline_spike only

	n uint64 // its number since the seed: salts its picks
}

// active says whether t is in the scenario's window.
func (sc *Scenario) active(t time.Time) bool { return !t.Before(sc.From) && t.Before(sc.Until) }

// picks says whether the scenario picks the object with id number seq.
func (sc *Scenario) picks(seed, seq int64) bool {
	if sc.Rate >= 1 {
		return true
	}
	r := rnd.New(rnd.NewPCG(uint64(seed)^sc.n*0x9e3779b97f4a7c15, uint64(seq)))
	return r.Float64() < sc.Rate
}

// scenarioSet is the scenarios set since the seed, in order.
type scenarioSet struct {
	list []Scenario
	n    uint64 // how many were ever set (the list drops ended ones)
}

// DeclineCodes are the result codes a decline_spike may give: every
// result the sandbox knows but Success, sorted.
func DeclineCodes() []string {
	var out []string
	for code := range resultMessages {
		if code != "Success" {
			out = append(out, code)
		}
	}
	slices.Sort(out)
	return out
}

// scenarioDurationProblem says what is wrong with a scenario's duration.
func scenarioDurationProblem(d time.Duration) string {
	if d <= 0 || d > MaxScenario {
		return fmt.Sprintf("duration %s is out of range: more than 0 and at most %s", d, maxScenarioText)
	}
	return ""
}

// checkScenario lists what is wrong with a request but its duration, and
// fills in the default result code of a decline_spike.
func checkScenario(req *ScenarioRequest) []string {
	var problems []string
	if !slices.Contains(scenarioKinds, req.Kind) {
		problems = append(problems, fmt.Sprintf("kind %q is not a scenario: give one of %s",
			clean(req.Kind, 64), strings.Join(scenarioKinds, ", ")))
	}
	if !(req.Rate > 0 && req.Rate <= 1) {
		problems = append(problems, fmt.Sprintf("rate %g is out of range: more than 0 and at most 1 (the share of objects affected)", req.Rate))
	}
	switch {
	case req.Kind != ScenarioDeclineSpike && req.ResultCode != "":
		problems = append(problems, "resultCode is given only with kind "+ScenarioDeclineSpike)
	case req.Kind == ScenarioDeclineSpike && req.ResultCode == "":
		req.ResultCode = defaultDeclineCode
	case req.Kind == ScenarioDeclineSpike && (req.ResultCode == "Success" || resultMessages[req.ResultCode] == ""):
		problems = append(problems, fmt.Sprintf("resultCode %q is not a decline code of the sandbox: give one of %s",
			clean(req.ResultCode, 64), strings.Join(DeclineCodes(), ", ")))
	}
	return problems
}

// SetScenario starts a scenario now, on the store clock.
func (s *Store) SetScenario(req ScenarioRequest) (Scenario, error) {
	problems := checkScenario(&req)
	if p := scenarioDurationProblem(req.Duration); p != "" {
		problems = append(problems, p)
	}
	if len(problems) > 0 {
		return Scenario{}, invalid(problems...)
	}
	s.mu.Lock()
	defer s.unlock()
	now := s.clock()
	set := &s.scenarios
	set.list = slices.DeleteFunc(set.list, func(sc Scenario) bool { return !now.Before(sc.Until) })
	set.n++
	sc := Scenario{Kind: req.Kind, From: now, Until: now.Add(req.Duration), Rate: req.Rate, ResultCode: req.ResultCode, n: set.n}
	set.list = append(set.list, sc)
	s.logf("sandbox scenario set", "kind", sc.Kind, "from", sc.From, "until", sc.Until, "rate", sc.Rate, "resultCode", sc.ResultCode)
	return sc, nil
}

// Scenarios lists the scenarios whose window has not ended, in the order
// they were set.
func (s *Store) Scenarios() []Scenario {
	s.mu.RLock()
	defer s.mu.RUnlock()
	now := s.clock()
	out := []Scenario{}
	for _, sc := range s.scenarios.list {
		if now.Before(sc.Until) {
			out = append(out, sc)
		}
	}
	return out
}

// picking is the first active scenario of kind that picks object seq.
func (s *Store) picking(kind string, seq int64, now time.Time) *Scenario {
	for i := range s.scenarios.list {
		sc := &s.scenarios.list[i]
		if sc.Kind == kind && sc.active(now) && sc.picks(s.seed, seq) {
			return sc
		}
	}
	return nil
}

// scenarioFlow is the flow a payment begun now takes once the scenarios
// have had their say (under the write lock): a decline_spike declines it;
// a confirmation_stall marks it stalled if it asks for a confirmation.
func (s *Store) scenarioFlow(p *Payment, f flow, decline string, now time.Time) (flow, string) {
	if sc := s.picking(ScenarioDeclineSpike, p.seq, now); sc != nil {
		return flowDecline, sc.ResultCode
	}
	switch f {
	case flowSmsOtp, flowThreeDSChallenge, flowThreeDSMethod, flowThreeDSv1, flowExternal:
		p.stalled = s.picking(ScenarioConfirmationStall, p.seq, now) != nil
	}
	return f, decline
}

// refundDue is when a refund made now settles: after SettleDelay, or not
// before the end of a refund_delay that picks it.
func (s *Store) refundDue(r *Refund, now time.Time) time.Time {
	due := now.Add(s.settleDelay)
	if sc := s.picking(ScenarioRefundDelay, r.seq, now); sc != nil && sc.Until.After(due) {
		due = sc.Until
	}
	return due
}

// --- HTTP ---

type scenarioIn struct {
	Kind       string          `json:"kind"`
	ResultCode string          `json:"resultCode"`
	Rate       *float64        `json:"rate"`
	Duration   json.RawMessage `json:"duration"`
}

type wireScenario struct {
	Kind       string    `json:"kind"`
	From       time.Time `json:"from"`
	Until      time.Time `json:"until"`
	Rate       float64   `json:"rate"`
	ResultCode string    `json:"resultCode,omitempty"`
}

func renderScenario(sc Scenario) wireScenario {
	return wireScenario{Kind: sc.Kind, From: sc.From, Until: sc.Until, Rate: sc.Rate, ResultCode: sc.ResultCode}
}

func (s *Server) controlSetScenario(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxControlBody))
	if err != nil {
		badRequest(w, []string{fmt.Sprintf("request body could not be read (at most %d bytes): %v", maxControlBody, err)})
		return
	}
	var in scenarioIn
	if problems := decodeInto(bytes.TrimPrefix(body, utf8BOM), &in); len(problems) > 0 {
		badRequest(w, problems)
		return
	}
	req := ScenarioRequest{Kind: in.Kind, ResultCode: in.ResultCode, Rate: 1}
	if in.Rate != nil {
		req.Rate = *in.Rate
	}
	d, problem := readDuration(in.Duration, `a Go duration such as "30m", or a number of seconds, more than 0 and at most `+maxScenarioText)
	if problem == "" {
		problem = scenarioDurationProblem(d)
	}
	// Every problem at once, as the API answers.
	if problems := checkScenario(&req); problem != "" || len(problems) > 0 {
		if problem != "" {
			problems = append(problems, problem)
		}
		badRequest(w, problems)
		return
	}
	req.Duration = d
	sc, err := s.store.SetScenario(req)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]wireScenario{"scenario": renderScenario(sc)})
}

func (s *Server) controlListScenarios(w http.ResponseWriter, _ *http.Request) {
	list := s.store.Scenarios()
	out := make([]wireScenario, len(list))
	for i, sc := range list {
		out[i] = renderScenario(sc)
	}
	writeJSON(w, http.StatusOK, map[string][]wireScenario{"scenarios": out})
}
