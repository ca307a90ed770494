package informer

import (
	"sync/atomic"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/reflector"
)

// Metrics is told about the informers a Factory makes, for a metrics
// library of the program's choice (package metrics implements it). It is
// called once per informer, when the Factory makes it, with the
// Factory's lock held: it must return quickly and must not call the
// Factory.
type Metrics interface {
	// Informer: the Factory made the informer of gvr in scope. cache
	// reads its state whenever the library wants it (when scraped). The
	// reflector.Metrics returned receives the measurements of its lists
	// and watches; nil leaves FactoryOptions.Reflector.Metrics in place.
	Informer(gvr client.GroupVersionResource, scope Scope, cache Cache) reflector.Metrics
}

// Cache is the state of an informer a metrics library reads. Its
// methods are safe for concurrent use and cheap.
type Cache interface {
	// Len is the number of objects cached.
	Len() int
	// HasSynced: the cache held a full state once (see
	// Informer.HasSynced).
	HasSynced() bool
	// Err is the persistent failure keeping the cache from following
	// the server, or nil (see Informer.Err).
	Err() error
	// ResourceVersion is the resourceVersion the cache is at.
	ResourceVersion() string
}

// cacheOf is the Cache of an informer, set once the informer is made.
type cacheOf[T client.Object] struct{ inf atomic.Pointer[Informer[T]] }

func (c *cacheOf[T]) Len() int {
	if inf := c.inf.Load(); inf != nil {
		return inf.store.Len()
	}
	return 0
}

func (c *cacheOf[T]) HasSynced() bool {
	inf := c.inf.Load()
	return inf != nil && inf.HasSynced()
}

func (c *cacheOf[T]) Err() error {
	if inf := c.inf.Load(); inf != nil {
		return inf.Err()
	}
	return nil
}

func (c *cacheOf[T]) ResourceVersion() string {
	if inf := c.inf.Load(); inf != nil {
		return inf.store.ResourceVersion()
	}
	return ""
}
