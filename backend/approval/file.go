package approval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"paydash/backend/action"
	"paydash/backend/journal"
	"paydash/backend/safefile"
)

// record is one line of the file: the whole request after a change, and
// which change it was.
type record struct {
	Event EventKind `json:"event"`
	Time  time.Time `json:"time"`
	ID    string    `json:"id"`
	// Action is the action as the journal of actions writes it
	// (action.EntryOf), its phase "requested".
	Action       journal.Entry `json:"action"`
	Requester    string        `json:"requester"`
	RequesterKey string        `json:"requesterKey,omitempty"`
	Filed        time.Time     `json:"filed"`
	Expires      time.Time     `json:"expires"`
	State        State         `json:"state"`
	Decider      string        `json:"decider,omitempty"`
	DeciderKey   string        `json:"deciderKey,omitempty"`
	Reason       string        `json:"reason,omitempty"`
	Decided      time.Time     `json:"decided,omitzero"`
	Outcome      string        `json:"outcome,omitempty"`
}

// phaseRequested is the phase of the action's line in the file: it is a
// request, not a journal line of something sent.
const phaseRequested = "requested"

func recordOf(ev EventKind, at time.Time, r Request) record {
	return record{Event: ev, Time: at, ID: r.ID, Action: action.EntryOf(r.Action, phaseRequested),
		Requester: r.Requester, RequesterKey: r.RequesterKey, Filed: r.Filed, Expires: r.Expires, State: r.State,
		Decider: r.Decider, DeciderKey: r.DeciderKey, Reason: r.Reason, Decided: r.Decided, Outcome: r.Outcome}
}

func (rec record) request() Request {
	return Request{ID: rec.ID, Action: action.RequestOf(rec.Action), Requester: rec.Requester,
		RequesterKey: rec.RequesterKey, Filed: rec.Filed, Expires: rec.Expires, State: rec.State,
		Decider: rec.Decider, DeciderKey: rec.DeciderKey, Reason: rec.Reason, Decided: rec.Decided, Outcome: rec.Outcome}
}

// known are the states a line may hold.
var known = map[State]bool{Waiting: true, Approved: true, Sent: true, Rejected: true, Withdrawn: true, Expired: true}

// decodeLine reads one line, or says why it cannot.
func decodeLine(b []byte) (record, error) {
	var rec record
	if err := json.Unmarshal(b, &rec); err != nil {
		return record{}, err
	}
	switch {
	case rec.ID == "":
		return record{}, errors.New("no request id")
	case !known[rec.State]:
		return record{}, fmt.Errorf("unknown state %q", rec.State)
	case rec.Action.Action == "":
		return record{}, errors.New("no action")
	}
	return rec, nil
}

// read reads the file back: each request as its last whole line has it.
func (s *Store) read() error {
	rf, err := safefile.OpenRead(s.path)
	if err != nil {
		return fmt.Errorf("approvals: %w", err)
	}
	defer rf.Close()
	s.tail.Size, s.tail.Torn, s.damaged, err = scan(rf, s.path, func(rec record) {
		r := rec.request()
		s.reqs[r.ID] = &r
	})
	return err
}

// scan gives each line of r to fn, in order. A line that cannot be read
// is skipped and kept in damaged; the last line without its newline (a
// write cut short by a crash, whose change was never made) is skipped
// silently (torn), and the next line starts on a new one. size is the
// bytes read.
func scan(r io.Reader, path string, fn func(record)) (size int64, torn bool, damaged []DamagedLine, err error) {
	br := bufio.NewReader(r)
	for no := 1; ; no++ {
		b, err := br.ReadBytes('\n')
		size += int64(len(b))
		if errors.Is(err, io.EOF) {
			return size, len(b) > 0, damaged, nil
		}
		if err != nil {
			return size, false, damaged, fmt.Errorf("approvals: reading %s: %w", path, err)
		}
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			continue
		}
		rec, derr := decodeLine(b)
		if derr != nil {
			damaged = append(damaged, DamagedLine{Line: no, Err: derr.Error()})
			continue
		}
		fn(rec)
	}
}

// History reads the file at path without opening the store (no lock: a
// server may hold it open meanwhile) and returns every change it records,
// in the order written, each with the request as it was after it; the
// lines that could not be read are in damaged. A missing file is an error
// wrapping fs.ErrNotExist. The Activity tab shows it (views/activity).
func History(path string) (events []Event, damaged []DamagedLine, err error) {
	rf, err := safefile.OpenRead(path)
	if err != nil {
		return nil, nil, fmt.Errorf("approvals: %w", err)
	}
	defer rf.Close()
	_, _, damaged, err = scan(rf, path, func(rec record) {
		events = append(events, Event{Kind: rec.Event, Time: rec.Time, Request: rec.request()})
	})
	return events, damaged, err
}

// write appends r after the change ev as one synced line; only then is the
// change made in memory and told to the subscribers. On an error nothing
// changed (a failed write is cut away). Called with s.mu held.
func (s *Store) write(ev EventKind, r Request) error {
	if s.closed {
		return ErrClosed
	}
	at := s.now().UTC().Round(0)
	b, err := json.Marshal(recordOf(ev, at, r))
	if err != nil {
		return fmt.Errorf("approvals: %w", err)
	}
	if err := s.tail.Append(s.f, s.path, append(b, '\n')); err != nil {
		return fmt.Errorf("approvals: %w", err)
	}
	s.reqs[r.ID] = &r
	s.publish(Event{Kind: ev, Time: at, Request: r})
	return nil
}
