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
	// Previous and Carried are only on the rollover line that begins a
	// rolled-over file (rolloverLine).
	Previous string `json:"previous,omitempty"`
	Carried  int    `json:"carried,omitempty"`
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
	case rec.Event == eventRollover:
		return rec, nil
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
// It returns what the scan found and the lines a rollover would carry.
func (s *Store) read() (scanned, *carrier, error) {
	rf, err := safefile.OpenRead(s.path)
	if err != nil {
		return scanned{}, nil, fmt.Errorf("approvals: %w", err)
	}
	defer rf.Close()
	c := newCarrier()
	sc, err := scan(rf, s.path, func(rec record, raw []byte) {
		r := rec.request()
		s.reqs[r.ID] = &r
		c.add(rec, raw)
	})
	s.tail, s.damaged = safefile.Tail{Size: sc.size, Torn: sc.torn}, sc.damaged
	return sc, c, err
}

// scanned is what scan found in a file.
type scanned struct {
	size    int64 // the bytes read
	torn    bool  // the last line has no newline: a write cut short
	damaged []DamagedLine
	head    *record   // the rollover line a rolled-over file begins with
	first   time.Time // the time of the file's first line
	lines   int       // the requests' lines (the head not counted)
}

// scan gives each line of r to fn, in order, with its bytes. A line that
// cannot be read is skipped and kept in damaged; the last line without
// its newline (a write cut short by a crash, whose change was never made)
// is skipped silently (torn), and the next line starts on a new one. The
// rollover line at the top of a rolled-over file is kept as head, not
// given to fn.
func scan(r io.Reader, path string, fn func(rec record, raw []byte)) (sc scanned, err error) {
	br := bufio.NewReader(r)
	for no := 1; ; no++ {
		b, err := br.ReadBytes('\n')
		sc.size += int64(len(b))
		if errors.Is(err, io.EOF) {
			sc.torn = len(b) > 0
			return sc, nil
		}
		if err != nil {
			return sc, fmt.Errorf("approvals: reading %s: %w", path, err)
		}
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			continue
		}
		rec, derr := decodeLine(b)
		if derr == nil && rec.Event == eventRollover && (sc.head != nil || sc.lines > 0) {
			derr = errors.New("a rollover line after the file's first line")
		}
		if derr != nil {
			sc.damaged = append(sc.damaged, DamagedLine{Line: no, Err: derr.Error()})
			continue
		}
		if sc.first.IsZero() {
			sc.first = rec.Time
		}
		if rec.Event == eventRollover {
			sc.head = &rec
			continue
		}
		sc.lines++
		fn(rec, b)
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
	sc, err := scan(rf, path, func(rec record, _ []byte) {
		events = append(events, Event{Kind: rec.Event, Time: rec.Time, Request: rec.request()})
	})
	return events, sc.damaged, err
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
