package approval

import "time"

// EventKind is the change an Event tells of (and a line of the file
// records).
type EventKind string

const (
	EventFiled     EventKind = "filed"
	EventClaimed   EventKind = "claimed" // approved: claimed for sending
	EventRejected  EventKind = "rejected"
	EventWithdrawn EventKind = "withdrawn"
	EventExpired   EventKind = "expired"
	EventSettled   EventKind = "settled" // an outcome, final (Sent) or so far (still Approved)
)

// Event is one change: what it was, when it was written, and the request
// after it.
type Event struct {
	Kind    EventKind
	Time    time.Time
	Request Request
}

// SubscriberBuffer is how many events a subscriber may fall behind by:
// past it, its oldest event is dropped to make room for the newest, so
// that a slow subscriber never blocks the store. Every event carries the
// whole request, so one who missed some still has the latest state of the
// requests it hears of; List gives the rest.
const SubscriberBuffer = 64

type subscriber struct {
	ch chan Event
}

// Subscribe returns a channel that gets every change from now on, and a
// func that ends the subscription (closing the channel). Every change
// reaches every subscriber at once; a subscriber that does not keep up
// loses its oldest events, never the newest (SubscriberBuffer). Close ends
// every subscription.
func (s *Store) Subscribe() (<-chan Event, func()) {
	sub := &subscriber{ch: make(chan Event, SubscriberBuffer)}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		close(sub.ch)
		return sub.ch, func() {}
	}
	s.subs[sub] = struct{}{}
	return sub.ch, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if _, ok := s.subs[sub]; ok {
			delete(s.subs, sub)
			close(sub.ch)
		}
	}
}

// publish gives ev to every subscriber without waiting: a full channel
// loses its oldest event. Called with s.mu held (the store is the only
// sender, so the room made is there for ev).
func (s *Store) publish(ev Event) {
	for sub := range s.subs {
		select {
		case sub.ch <- ev:
			continue
		default:
		}
		select {
		case <-sub.ch:
		default:
		}
		select {
		case sub.ch <- ev:
		default:
		}
	}
}
