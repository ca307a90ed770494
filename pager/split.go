package pager

import (
	"context"
	"fmt"

	"github.com/kubewire/kubewire/client"
)

// BodyFunc reads one page of a collection without decoding its items:
// the signature of (*client.Resource[T]).ListBody. The rules of ListFunc
// apply.
type BodyFunc[T client.Object] func(ctx context.Context, opts client.ListOptions) (*client.ListBody[T], error)

// NewSplit returns a Pager that reads pages with body, typically a
// Resource's ListBody method, and decodes each page's items on the
// goroutine ranging over Pages or Items, once the page is handed over:
// with read-ahead, the request for the next page (the server's work and
// the transfer) runs while this page's items decode, instead of after.
// Everything else is as for New.
func NewSplit[T client.Object](body BodyFunc[T], opts Options) (*Pager[T], error) {
	if body == nil {
		return nil, invalid("NewSplit was given no list function")
	}
	s, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	return &Pager[T]{body: body, opts: opts, s: s}, nil
}

// decode reads the items of a page fetched by a BodyFunc; the page then
// holds them as a page fetched by a ListFunc does.
func (pg *Page[T]) decode() error {
	if pg.body == nil {
		return nil
	}
	b := pg.body
	pg.body = nil
	l, err := b.Decode()
	if err != nil {
		return fmt.Errorf("pager: page %d: %w", pg.Index+1, err)
	}
	pg.List = l
	return nil
}
