package pager

import (
	"fmt"

	"github.com/kubewire/kubewire/client"
)

// DefaultPageSize is the number of items asked for per page when
// Options.PageSize (and ListOptions.Limit) are zero.
const DefaultPageSize = 500

// DefaultReadAhead is the number of pages fetched ahead of the caller
// when Options.ReadAhead is zero.
const DefaultReadAhead = 1

// ReadAheadOff, as Options.ReadAhead, fetches each page only when the
// caller asks for it.
const ReadAheadOff = -1

const (
	defaultMaxExpired  = 3
	defaultPageRetries = 3
	// maxPrealloc bounds the capacity ListAll reserves from the server's
	// remainingItemCount (8 MiB of pointers): a count is an estimate, and
	// a wrong or hostile one must not reserve gigabytes. Beyond it the
	// slice grows as usual.
	maxPrealloc = 1 << 20
)

// ExpiredPolicy says what the pager does when the server answers a
// continue request with 410 Gone (the token expired, by default after
// five minutes, or the snapshot was compacted away).
type ExpiredPolicy int

const (
	// RestartUnpaged lists again from the start in a single request
	// without a limit, at the resourceVersion and resourceVersionMatch
	// first asked for: the answer is a consistent snapshot that cannot
	// expire midway, at the cost of one large response. This is what
	// client-go's pager does, and the default.
	RestartUnpaged ExpiredPolicy = iota
	// RestartPaged lists again from the start, in pages, up to
	// Options.MaxExpired times. Memory stays bounded; a list slower than
	// the token's lifetime fails after the last restart.
	RestartPaged
	// ContinueInconsistent goes on with the fresh continue token that
	// the 410 Status carries. The rest of the list is read at a newer
	// resourceVersion: the result is not a snapshot. Objects created,
	// changed or deleted between the two versions may be missing, seen
	// twice in different states, or seen after their deletion. Pages and
	// Snapshot report Inconsistent. Without a fresh token in the Status
	// the 410 is returned.
	ContinueInconsistent
	// ReturnExpired ends the list with the 410 error (errors.Is
	// client.ErrExpired).
	ReturnExpired
)

// String names the policy.
func (p ExpiredPolicy) String() string {
	switch p {
	case RestartUnpaged:
		return "RestartUnpaged"
	case RestartPaged:
		return "RestartPaged"
	case ContinueInconsistent:
		return "ContinueInconsistent"
	case ReturnExpired:
		return "ReturnExpired"
	}
	return fmt.Sprintf("ExpiredPolicy(%d)", int(p))
}

// Options configure a Pager. The zero value lists everything in pages of
// DefaultPageSize, fetching one page ahead, restarting without a limit
// when a continue token expires. Options is a plain value: New copies it.
type Options struct {
	// ListOptions are sent with the first request of each list:
	// selectors, ResourceVersion and ResourceVersionMatch (see the API
	// concepts' table; invalid combinations are rejected before any
	// request), TimeoutSeconds and Decoder. Later pages send the
	// selectors, TimeoutSeconds and the continue token, which carries the
	// snapshot's resourceVersion. Continue must be empty: the pager owns
	// the token. Limit, when set, is the page size (see PageSize).
	//
	// ResourceVersion "0" is served from the API server's cache, which
	// ignores the limit: the whole collection arrives as one page.
	ListOptions client.ListOptions

	// PageSize is the limit of each request (default DefaultPageSize).
	// ListOptions.Limit is used when PageSize is zero; setting both to
	// different values is an error.
	PageSize int64

	// ReadAhead is how many pages are fetched, by one goroutine, ahead
	// of the page the caller is handling in Pages and Items (default
	// DefaultReadAhead; ReadAheadOff or any negative value: none). At
	// most ReadAhead+1 pages are held at a time, the caller's included,
	// and the answer of the next page (undecoded) while one decodes: the
	// next page is asked for as soon as an answer's continue token is
	// known, before its items are decoded (see ListFunc). ListAll never
	// reads ahead.
	ReadAhead int

	// OnExpired is what to do when a continue token expires (default
	// RestartUnpaged).
	OnExpired ExpiredPolicy

	// MaxExpired bounds how many expired continue tokens one list
	// recovers from, by restarting or continuing (default 3); the next
	// 410 is returned.
	MaxExpired int

	// PageRetries is how many more times a page is asked for after its
	// response broke off (a connection dropped mid-body, a reset: the
	// error matches client.ErrConnectionLost): such
	// a request never reached a conclusion, and repeating it with the
	// same continue token is safe. Default 3; negative: none. Errors
	// the server answered (Status errors, 429 and 5xx included, which
	// client.Resource.List already retries by its RetryPolicy), decoding
	// errors and context errors are not retried.
	PageRetries int

	// Progress, when set, is called on the iterating goroutine each time
	// a page arrives, before its items are handed over; it blocks the
	// iteration while it runs.
	Progress func(Progress)
}

// settings are Options checked and with defaults filled in.
type settings struct {
	list        client.ListOptions // Limit set, Continue empty
	readAhead   int                // 0: none
	onExpired   ExpiredPolicy
	maxExpired  int
	pageRetries int
	progress    func(Progress)
}

// resolve checks o and fills in defaults. Errors match
// client.ErrInvalidOptions.
func (o Options) resolve() (settings, error) {
	lo := o.ListOptions
	size := o.PageSize
	switch {
	case size < 0:
		return settings{}, invalid("page size %d is negative", size)
	case lo.Limit < 0:
		return settings{}, invalid("limit %d is negative", lo.Limit)
	case size > 0 && lo.Limit > 0 && size != lo.Limit:
		return settings{}, invalid("page size %d and limit %d differ: set one", size, lo.Limit)
	case size == 0:
		size = lo.Limit
	}
	if size == 0 {
		size = DefaultPageSize
	}
	lo.Limit = size
	if lo.Continue != "" {
		return settings{}, invalid("a continue token cannot be given: the pager starts lists and follows their tokens itself")
	}
	// Checked as client.Resource.List would, whatever the list function.
	if err := lo.Validate(); err != nil {
		return settings{}, err
	}
	if lo.TimeoutSeconds < 0 {
		return settings{}, invalid("timeoutSeconds %d is negative", lo.TimeoutSeconds)
	}
	for _, sel := range []struct {
		what string
		s    client.Selector
	}{{"label selector", lo.LabelSelector}, {"field selector", lo.FieldSelector}} {
		if e, ok := sel.s.(interface{ Err() error }); ok && e.Err() != nil {
			return settings{}, fmt.Errorf("pager: %s: %w", sel.what, e.Err())
		}
	}
	s := settings{list: lo, onExpired: o.OnExpired, progress: o.Progress}
	switch {
	case o.ReadAhead == 0:
		s.readAhead = DefaultReadAhead
	case o.ReadAhead > 0:
		s.readAhead = o.ReadAhead
	}
	if o.OnExpired < RestartUnpaged || o.OnExpired > ReturnExpired {
		return settings{}, invalid("unknown expired-token policy %d", int(o.OnExpired))
	}
	switch {
	case o.MaxExpired < 0:
		return settings{}, invalid("max expired %d is negative", o.MaxExpired)
	case o.MaxExpired == 0:
		s.maxExpired = defaultMaxExpired
	default:
		s.maxExpired = o.MaxExpired
	}
	switch {
	case o.PageRetries == 0:
		s.pageRetries = defaultPageRetries
	case o.PageRetries > 0:
		s.pageRetries = o.PageRetries
	}
	return s, nil
}

// invalid is an error about options, matching client.ErrInvalidOptions.
func invalid(format string, args ...any) error {
	return fmt.Errorf("pager: %s: %w", fmt.Sprintf(format, args...), client.ErrInvalidOptions)
}
