// Package pager reads large Kubernetes lists page by page (limit and
// continue), for typed, dynamic and metadata-only resources alike:
//
//	p, err := pager.New(pods.List, pager.Options{PageSize: 500})
//	if err != nil {
//		return err // invalid options
//	}
//	for pod, err := range p.Items(ctx) {
//		if err != nil {
//			return err
//		}
//		...
//	}
//	w, err := pods.Watch(ctx, client.WatchOptions{ResourceVersion: p.Snapshot().ResourceVersion})
//
// Items and Pages are Go iterators; ListAll gathers every page into one
// *client.List, reserving room from the server's remainingItemCount.
//
// # Consistency
//
// Every page of a list is served at its first page's resourceVersion
// (the continue token carries it), so the pages together are one
// snapshot, and a watch started from Snapshot().ResourceVersion misses no
// later change. A continue token expires (410 Gone, after about five
// minutes on kube-apiserver); Options.OnExpired says what happens then:
// list again without a limit (the default, as client-go does), list again
// in pages, continue with the fresh token the 410 carries (the list is
// then not a snapshot, and pages say so), or return the error. A server
// asked for resourceVersion "0" answers from its cache and ignores the
// limit: the whole list arrives as one page. Invalid combinations of
// resourceVersion and resourceVersionMatch are rejected by New, with
// errors matching client.ErrInvalidOptions.
//
// # Memory and read-ahead
//
// Items and Pages hold at most Options.ReadAhead+1 pages at a time (the
// caller's included), whatever the size of the list: a goroutine fetches
// the next page while the caller handles the current one. It asks for a
// page as soon as the answer before it has arrived, while that answer
// decodes (client.Resource.List reads the continue token from the
// answer's bytes first: see client.ListOptions.BeforeDecode), so the
// server works on the next page during the decode; that answer waits
// undecoded for its turn, one more page's bytes in memory. The goroutine
// and any request sent ahead are stopped, and waited for, before the
// range statement ends. ListAll holds the whole list by design.
//
// # Errors and retries
//
// Failed requests are the list function's to retry: client.Resource.List
// retries 429 and 5xx answers and connections that failed before a
// response, by its client's RetryPolicy. The pager itself asks again for
// a page whose response broke off midway (Options.PageRetries), which is
// safe: the same continue token reads the same page of the same snapshot.
// What broke off is the client's to say: errors matching
// client.ErrConnectionLost. The waits between those tries follow
// kubewire's one backoff policy (100 ms doubling up to 2 s, jittered, and
// never longer).
//
// # Concurrency
//
// A Pager runs one list at a time; its Snapshot may be read from any
// goroutine. The package has no global state and starts no goroutine
// that outlives a call or a range statement.
package pager
