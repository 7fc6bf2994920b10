package approval

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"paydash/backend"
	"paydash/backend/action"
)

// File files a as a request of requester (their SSH key's fingerprint
// key), waiting for TTL. The action must be one Send would send
// (action.Validate: its kind's own checks, a refund's or a create's key
// among them); its action ID is given now when it has none, and a create's
// request is put under its key, so that what is approved is exactly what
// is sent. The request is on disk (synced) before File returns.
func (s *Store) File(a action.Request, requester, key string) (Request, error) {
	if strings.TrimSpace(requester) == "" {
		return Request{}, errors.New("approvals: a request needs the name of who asks for it")
	}
	if a.ID == "" {
		a.ID = backend.NewIdempotencyKey()
	}
	a = action.KindOf(a.Kind).Prepare(a)
	if err := action.Validate(a); err != nil {
		return Request{}, fmt.Errorf("approvals: %s cannot be filed: %w", action.Describe(a), err)
	}
	a.Person = requester
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now().UTC().Round(0)
	r := Request{ID: backend.NewIdempotencyKey(), Action: a, Requester: requester, RequesterKey: key,
		Filed: now, Expires: now.Add(s.ttl), State: Waiting}
	if err := s.write(EventFiled, r); err != nil {
		return Request{}, err
	}
	return r, nil
}

// List is every request: the waiting ones first, oldest first, then the
// decided ones, the latest decided first.
func (s *Store) List() []Request {
	s.mu.Lock()
	out := make([]Request, 0, len(s.reqs))
	for _, r := range s.reqs {
		out = append(out, *r)
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b Request) int {
		aw, bw := a.State == Waiting, b.State == Waiting
		switch {
		case aw && bw:
			return cmp.Or(a.Filed.Compare(b.Filed), cmp.Compare(a.ID, b.ID))
		case aw:
			return -1
		case bw:
			return 1
		}
		return cmp.Or(b.Decided.Compare(a.Decided), b.Filed.Compare(a.Filed), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// Get is the request id.
func (s *Store) Get(id string) (Request, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.reqs[id]; ok {
		return *r, true
	}
	return Request{}, false
}

// Claim approves request id for approver (their key's fingerprint key) and
// claims it for sending: Waiting → Approved, exactly once however many
// supervisors approve it at the same moment. The one who asked cannot
// approve their own request; one no longer waiting is refused saying what
// it is and who decided it; one past its expiry is expired now and
// refused. The request returned carries the action with Person, Approver
// and ApproverKey set: send that.
func (s *Store) Claim(id, approver, key string) (Request, error) {
	return s.decide(id, approver, key, func(r *Request) EventKind {
		r.State = Approved
		r.Action.Person, r.Action.Approver, r.Action.ApproverKey = r.Requester, approver, key
		return EventClaimed
	})
}

// Reject refuses request id for by, with reason (required, as typed):
// Waiting → Rejected. The one who asked cannot reject their own request:
// they Withdraw it.
func (s *Store) Reject(id, by, key, reason string) (Request, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return Request{}, errors.New("approvals: a rejection needs a reason")
	}
	return s.decide(id, by, key, func(r *Request) EventKind {
		r.State, r.Reason = Rejected, reason
		return EventRejected
	})
}

// Withdraw is the one who asked taking back their request while it waits:
// Waiting → Withdrawn. Only the requester (by their name) may; a
// supervisor rejects instead.
func (s *Store) Withdraw(id, by, key string) (Request, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.waiting(id)
	if err != nil {
		return Request{}, err
	}
	if by != r.Requester {
		return Request{}, fmt.Errorf("approvals: %w (%s asked for it)", ErrNotOwn, r.Requester)
	}
	r.State, r.Decider, r.DeciderKey, r.Decided, r.Reason = Withdrawn, by, key, s.now().UTC().Round(0), "withdrawn by who asked"
	if err := s.write(EventWithdrawn, r); err != nil {
		return Request{}, err
	}
	return r, nil
}

// decide makes a supervisor's decision on a waiting request: not the
// requester's own, written before it is made.
func (s *Store) decide(id, by, key string, change func(*Request) EventKind) (Request, error) {
	if strings.TrimSpace(by) == "" {
		return Request{}, errors.New("approvals: a decision needs the name of who makes it")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.waiting(id)
	if err != nil {
		return Request{}, err
	}
	if by == r.Requester || (key != "" && key == r.RequesterKey) {
		return Request{}, fmt.Errorf("approvals: %w: %s asked for %s; another supervisor decides it",
			ErrOwn, r.Requester, action.Describe(r.Action))
	}
	r.Decider, r.DeciderKey, r.Decided = by, key, s.now().UTC().Round(0)
	ev := change(&r)
	if err := s.write(ev, r); err != nil {
		return Request{}, err
	}
	return r, nil
}

// waiting is request id if it is waiting; past its expiry it is expired now
// (written) and refused. Called with s.mu held.
func (s *Store) waiting(id string) (Request, error) {
	p, ok := s.reqs[id]
	if !ok {
		return Request{}, fmt.Errorf("approvals: %w: %q", ErrNotFound, id)
	}
	r := *p
	if r.State == Waiting && !s.now().Before(r.Expires) {
		if err := s.expire(r); err != nil {
			return Request{}, err
		}
		return Request{}, fmt.Errorf("approvals: %w: nobody decided it by %s", ErrExpired, r.Expires.Format(time.DateTime+" MST"))
	}
	if r.State != Waiting {
		return Request{}, fmt.Errorf("approvals: %w: %s", ErrNotWaiting, describeState(r))
	}
	return r, nil
}

// describeState says what became of a request no longer waiting, and who.
func describeState(r Request) string {
	at := r.Decided.Format(time.TimeOnly + " MST")
	switch r.State {
	case Approved, Sent:
		return fmt.Sprintf("%s approved it at %s", r.Decider, at)
	case Rejected:
		return fmt.Sprintf("%s rejected it at %s (%s)", r.Decider, at, r.Reason)
	case Withdrawn:
		return fmt.Sprintf("%s withdrew it at %s", r.Decider, at)
	case Expired:
		return fmt.Sprintf("it expired at %s, undecided", r.Expires.Format(time.TimeOnly+" MST"))
	}
	return "it is " + string(r.State)
}

// expire writes r as Expired. Called with s.mu held.
func (s *Store) expire(r Request) error {
	r.State, r.Decided = Expired, s.now().UTC().Round(0)
	return s.write(EventExpired, r)
}

// Expire moves the waiting requests past their expiry to Expired and
// returns them (the server calls it on a ticker; Claim, Reject and
// Withdraw do it too for the one they are given). A request whose line
// cannot be written stays waiting, and the next call tries again.
func (s *Store) Expire() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	var out []Request
	for _, p := range s.reqs {
		if p.State == Waiting && !now.Before(p.Expires) {
			if err := s.expire(*p); err == nil {
				out = append(out, *s.reqs[p.ID])
			}
		}
	}
	slices.SortFunc(out, func(a, b Request) int { return cmp.Or(a.Filed.Compare(b.Filed), cmp.Compare(a.ID, b.ID)) })
	return out
}

// Settle records what became of the approved request id once sent:
// outcome is action.Outcome.Text. final (done or not done) makes it Sent;
// not final (unknown, being found out) keeps it Approved with the text.
func (s *Store) Settle(id string, outcome string, final bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.reqs[id]
	switch {
	case !ok:
		return fmt.Errorf("approvals: %w: %q", ErrNotFound, id)
	case p.State != Approved:
		return fmt.Errorf("approvals: %w: it is %s", ErrNotClaimed, p.State)
	}
	r := *p
	r.Outcome = outcome
	if final {
		r.State = Sent
	}
	return s.write(EventSettled, r)
}

// Unsettled are the approved requests whose outcome is not final, oldest
// approval first: after a restart, those a server was sending when it
// stopped. What became of each is in the journal of actions, under the
// action's ID (docs/approvals.md).
func (s *Store) Unsettled() []Request {
	var out []Request
	for _, r := range s.List() {
		if r.State == Approved {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b Request) int { return cmp.Or(a.Decided.Compare(b.Decided), cmp.Compare(a.ID, b.ID)) })
	return out
}
