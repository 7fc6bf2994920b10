package views

import "context"

// stamp is what every asynchronous answer of a component carries: whose
// answer it is (owner: the component's own number) and in which of its
// read generations it was asked (gen). A component keeps its reads in a
// reader and accepts an answer only when the reader calls its stamp fresh.
type stamp struct {
	owner uint64
	gen   uint64
}

// reader is a component's reads of one thing (a list's pages, a pane's
// object, a search): starting one abandons the one under way (its context
// is cancelled and its answer's stamp goes stale), and stop abandons it
// without starting another. The zero reader is ready: it takes its owner
// number when first used.
type reader struct {
	owner  uint64
	gen    uint64
	ctx    context.Context
	cancel context.CancelFunc
}

// start abandons the read under way and starts another under parent: the
// context the new read runs under and the stamp its answer carries.
func (r *reader) start(parent context.Context) (context.Context, stamp) {
	r.stop()
	r.ctx, r.cancel = context.WithCancel(parent)
	return r.ctx, r.stamp()
}

// next is start under no parent: the read ends only when another starts
// or the reader stops.
func (r *reader) next() (context.Context, stamp) { return r.start(context.Background()) }

// stop abandons the read under way: its context is cancelled and its
// answer will be dropped.
func (r *reader) stop() {
	if r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
	r.gen++
}

// current is the context and stamp of the read under way, for further
// reads about the same thing: they end with it, and their answers are
// dropped with its. Before any read it is a background context; after
// stop, the stopped read's (cancelled) one.
func (r *reader) current() (context.Context, stamp) {
	if r.ctx == nil {
		return context.Background(), r.stamp()
	}
	return r.ctx, r.stamp()
}

// stamp is the stamp of the current generation.
func (r *reader) stamp() stamp {
	if r.owner == 0 {
		r.owner = newOwner()
	}
	return stamp{owner: r.owner, gen: r.gen}
}

// owns reports whether s is an answer of this reader's, current or not: a
// component routes its messages by it.
func (r *reader) owns(s stamp) bool { return r.owner != 0 && s.owner == r.owner }

// fresh reports whether s is the stamp of the read under way (or the last
// one): an answer with any other stamp is for what was abandoned.
func (r *reader) fresh(s stamp) bool { return r.owns(s) && s.gen == r.gen }
