package tab

import "context"

// Stamp is what every asynchronous answer of a component carries: whose
// answer it is (owner: the component's own number) and in which of its
// read generations it was asked (gen). A component keeps its reads in a
// reader and accepts an answer only when the reader calls its stamp fresh.
type Stamp struct {
	owner uint64
	gen   uint64
}

// Reader is a component's reads of one thing (a list's pages, a pane's
// object, a search): starting one abandons the one under way (its context
// is cancelled and its answer's stamp goes stale), and stop abandons it
// without starting another. The zero reader is ready: it takes its owner
// number when first used.
type Reader struct {
	owner  uint64
	gen    uint64
	ctx    context.Context
	cancel context.CancelFunc
}

// Start abandons the read under way and starts another under parent: the
// Context the new read runs under and the stamp its answer carries.
func (r *Reader) Start(parent context.Context) (context.Context, Stamp) {
	r.Stop()
	r.ctx, r.cancel = context.WithCancel(parent)
	return r.ctx, r.Stamp()
}

// Next is start under no parent: the read ends only when another starts
// or the reader stops.
func (r *Reader) Next() (context.Context, Stamp) { return r.Start(context.Background()) }

// Stop abandons the read under way: its context is cancelled and its
// answer will be dropped.
func (r *Reader) Stop() {
	if r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
	r.gen++
}

// Current is the context and stamp of the read under way, for further
// reads about the same thing: they end with it, and their answers are
// dropped with its. Before any read it is a background context; after
// stop, the stopped read's (cancelled) one.
func (r *Reader) Current() (context.Context, Stamp) {
	if r.ctx == nil {
		return context.Background(), r.Stamp()
	}
	return r.ctx, r.Stamp()
}

// Stamp is the stamp of the current generation.
func (r *Reader) Stamp() Stamp {
	if r.owner == 0 {
		r.owner = NewOwner()
	}
	return Stamp{owner: r.owner, gen: r.gen}
}

// Owns reports whether s is an answer of this reader's, current or not: a
// component routes its messages by it.
func (r *Reader) Owns(s Stamp) bool { return r.owner != 0 && s.owner == r.owner }

// Fresh reports whether s is the stamp of the read under way (or the last
// one): an answer with any other stamp is for what was abandoned.
func (r *Reader) Fresh(s Stamp) bool { return r.Owns(s) && s.gen == r.gen }
