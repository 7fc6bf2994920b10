package backend

import "context"

// Page is one answer of a list: its items and whether the list ends here.
type Page[T any] struct {
	Items []T
	Done  bool
}

// Pager walks a list one request at a time. The UI asks for the next page
// when the user scrolls near the end; each Next is exactly one round of
// requests, and after a page with Done every further Next returns an empty
// Done page. A Pager is not safe for concurrent use: the UI keeps at most
// one request per list in flight.
type Pager[T any] interface {
	Next(ctx context.Context) (Page[T], error)
}

// Collect drains a pager; for tests and exports, not for the UI.
func Collect[T any](ctx context.Context, p Pager[T]) ([]T, error) {
	var all []T
	for {
		page, err := p.Next(ctx)
		if err != nil {
			return all, err
		}
		all = append(all, page.Items...)
		if page.Done {
			return all, nil
		}
	}
}

// pagerFunc adapts a fetch function that returns the next cursor; an empty
// cursor ends the list.
type cursorPager[T any] struct {
	fetch  func(ctx context.Context, cursor string) ([]T, string, error)
	cursor string
	done   bool
}

func (p *cursorPager[T]) Next(ctx context.Context) (Page[T], error) {
	if p.done {
		return Page[T]{Done: true}, nil
	}
	items, next, err := p.fetch(ctx, p.cursor)
	if err != nil {
		// The cursor stays where it was, so the caller may simply ask again.
		return Page[T]{}, err
	}
	p.cursor = next
	p.done = next == ""
	return Page[T]{Items: items, Done: p.done}, nil
}

// pagerFunc is a Pager written as one function, for pagers whose state lives
// in a closure (the v1 narrowing pages).
type pagerFunc[T any] func(ctx context.Context) (Page[T], error)

func (f pagerFunc[T]) Next(ctx context.Context) (Page[T], error) { return f(ctx) }
