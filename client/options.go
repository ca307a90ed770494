package client

import (
	"net/url"
	"strconv"
	"time"

	"github.com/kubewire/kubewire/api/wire"
)

// One options struct per verb. The zero value of each asks for the
// server's defaults; only fields that are set become query parameters.
// Fields marked "client side" change what the client does and are never
// sent.

// ResourceVersionMatch says how a list's resourceVersion is read
// (resourceVersionMatch).
type ResourceVersionMatch string

// The values of ResourceVersionMatch.
const (
	// MatchNotOlderThan serves data at least as new as the resourceVersion.
	MatchNotOlderThan ResourceVersionMatch = "NotOlderThan"
	// MatchExact serves data at exactly the resourceVersion (410 when it
	// was compacted).
	MatchExact ResourceVersionMatch = "Exact"
)

// FieldValidation says what the server does with unknown or duplicate
// fields in a write (fieldValidation).
type FieldValidation string

// The values of FieldValidation.
const (
	FieldValidationIgnore FieldValidation = "Ignore" // drop them silently
	FieldValidationWarn   FieldValidation = "Warn"   // drop them with a Warning header (the server's default)
	FieldValidationStrict FieldValidation = "Strict" // fail with 400
)

// Propagation says how dependents of a deleted object are handled
// (propagationPolicy).
type Propagation string

// The values of Propagation.
const (
	PropagationOrphan     Propagation = "Orphan"
	PropagationBackground Propagation = "Background"
	PropagationForeground Propagation = "Foreground"
)

// GetOptions are the options of Get.
type GetOptions struct {
	// ResourceVersion "" reads the most recent state; "0" any cached
	// state; another value a state not older than it.
	ResourceVersion string
}

// ListOptions are the options of List.
type ListOptions struct {
	LabelSelector Selector
	FieldSelector Selector
	// ResourceVersion and ResourceVersionMatch select the state read; see
	// the API concepts' table. Combinations it calls invalid are
	// rejected before sending (ErrInvalidOptions).
	ResourceVersion      string
	ResourceVersionMatch ResourceVersionMatch
	// Limit asks for at most this many items (a page); Continue is the
	// token of the previous page.
	Limit    int64
	Continue string
	// TimeoutSeconds bounds the server's work on the list.
	TimeoutSeconds int64
	// ShardSelector asks for one shard of the collection (KEP-5866);
	// see ShardSelector for servers that ignore it.
	ShardSelector ShardSelector

	// Decoder (client side) decodes the items of a protobuf answer through
	// this wire.Decoder instead of a new one: an informer passes one
	// long-lived ReadOnly Decoder to its lists and watches so that equal
	// strings and maps are shared across every object it holds. A
	// Decoder is not safe for concurrent use: give one to a single caller.
	Decoder *wire.Decoder

	// BeforeDecode (client side), when set, is called once the answer
	// has been read whole and before its items are decoded, with the
	// continue token read from the answer's bytes without decoding them
	// ("" when it was not found there): package pager asks for the next
	// page from it while this one decodes. The token is a hint; the
	// decoded List's Continue is the one that counts. An error it returns
	// is List's, and the answer is not decoded. It is not called for an
	// error answer.
	BeforeDecode func(continueHint string) error
}

// WatchOptions are the options of Watch.
type WatchOptions struct {
	LabelSelector Selector
	FieldSelector Selector
	// ResourceVersion "" starts with the current state (synthetic ADDED
	// events) at the most recent version, "0" at any version, another
	// value just after that version (no initial state).
	ResourceVersion string
	// ResourceVersionMatch is only valid with SendInitialEvents, and must
	// then be MatchNotOlderThan.
	ResourceVersionMatch ResourceVersionMatch
	// AllowWatchBookmarks asks for BOOKMARK events carrying the latest
	// resourceVersion.
	AllowWatchBookmarks bool
	// SendInitialEvents (a streaming list) starts the watch with the
	// current state as ADDED events, ended by a bookmark for which
	// Event.InitialEventsEnd is true. It needs AllowWatchBookmarks and
	// ResourceVersionMatch NotOlderThan.
	SendInitialEvents *bool
	// TimeoutSeconds asks the server to end the watch after this long.
	TimeoutSeconds int64
	// ShardSelector asks for the events of one shard (KEP-5866); see
	// ShardSelector for servers that ignore it.
	ShardSelector ShardSelector

	// IdleTimeout (client side) ends the watch with ErrWatchIdle when no
	// event, bookmark included, arrives for this long, and fails Watch
	// with an error matching ErrWatchIdle when the server's answer does
	// not start within it. Zero: no limit (the context, and the HTTP/2
	// health check for a dead connection, still end the watch). Asking
	// for bookmarks makes a quiet watch send something about once a
	// minute, so a few minutes is a safe bound then.
	IdleTimeout time.Duration
	// Decoder (client side) decodes protobuf events through this
	// wire.Decoder; see ListOptions.Decoder.
	Decoder *wire.Decoder
}

// CreateOptions are the options of Create.
type CreateOptions struct {
	DryRun          bool // validate and admit, but do not persist
	FieldManager    string
	FieldValidation FieldValidation
}

// UpdateOptions are the options of Update and UpdateStatus.
type UpdateOptions struct {
	DryRun          bool
	FieldManager    string
	FieldValidation FieldValidation
}

// PatchOptions are the options of Patch and Apply.
type PatchOptions struct {
	DryRun          bool
	FieldManager    string // required for ApplyPatch
	FieldValidation FieldValidation
	// Force takes over conflicting fields from other managers; only for
	// ApplyPatch.
	Force bool
}

// Preconditions must hold for a delete to happen (else 409 Conflict).
type Preconditions struct {
	UID             string
	ResourceVersion string
}

// DeleteOptions are the options of Delete.
type DeleteOptions struct {
	DryRun bool
	// GracePeriodSeconds overrides the object's grace period; 0 deletes
	// at once. Nil uses the default.
	GracePeriodSeconds *int64
	// PropagationPolicy says what happens to dependents.
	PropagationPolicy Propagation
	// Preconditions, when set, must match the stored object.
	Preconditions *Preconditions
}

// DeleteCollectionOptions are the options of DeleteCollection: which
// objects (selectors) and how each is deleted.
type DeleteCollectionOptions struct {
	LabelSelector      Selector
	FieldSelector      Selector
	DryRun             bool
	GracePeriodSeconds *int64
	PropagationPolicy  Propagation
	TimeoutSeconds     int64
}

func (o GetOptions) query() url.Values {
	q := url.Values{}
	if o.ResourceVersion != "" {
		q.Set("resourceVersion", o.ResourceVersion)
	}
	return q
}

func (o ListOptions) query() (url.Values, error) {
	if err := checkListVersions(o.ResourceVersion, o.ResourceVersionMatch, o.Limit, o.Continue); err != nil {
		return nil, err
	}
	q, err := selectorQuery(o.LabelSelector, o.FieldSelector)
	if err != nil {
		return nil, err
	}
	setNonEmpty(q, "resourceVersion", o.ResourceVersion)
	setNonEmpty(q, "resourceVersionMatch", string(o.ResourceVersionMatch))
	if o.Limit > 0 {
		q.Set("limit", strconv.FormatInt(o.Limit, 10))
	}
	setNonEmpty(q, "continue", o.Continue)
	if o.TimeoutSeconds < 0 {
		return nil, invalidOptions("timeoutSeconds %d is negative", o.TimeoutSeconds)
	}
	if o.TimeoutSeconds > 0 {
		q.Set("timeoutSeconds", strconv.FormatInt(o.TimeoutSeconds, 10))
	}
	if err := setShardSelector(q, o.ShardSelector); err != nil {
		return nil, err
	}
	return q, nil
}

// setShardSelector validates s and adds it to q.
func setShardSelector(q url.Values, s ShardSelector) error {
	if err := s.Validate(); err != nil {
		return err
	}
	if s.SelectsNothing() {
		return invalidOptions("shard selector on %s selects nothing: there is nothing to ask for", s.Key)
	}
	setNonEmpty(q, "shardSelector", s.String())
	return nil
}

// checkListVersions applies the API concepts' table of resourceVersion,
// resourceVersionMatch, limit and continue for lists.
// Validate checks o against the API concepts' rules for resourceVersion,
// resourceVersionMatch, limit and continue, as List does before sending
// anything; the error matches ErrInvalidOptions. Callers that build list
// requests of their own (a pager) use it to fail early too.
func (o ListOptions) Validate() error {
	return checkListVersions(o.ResourceVersion, o.ResourceVersionMatch, o.Limit, o.Continue)
}

func checkListVersions(rv string, match ResourceVersionMatch, limit int64, cont string) error {
	if limit < 0 {
		return invalidOptions("limit %d is negative", limit)
	}
	switch match {
	case "", MatchExact, MatchNotOlderThan:
	default:
		return invalidOptions("resourceVersionMatch %q is not Exact or NotOlderThan", match)
	}
	if match != "" && rv == "" {
		return invalidOptions("resourceVersionMatch %s needs a resourceVersion", match)
	}
	if match == MatchExact && rv == "0" {
		return invalidOptions(`resourceVersionMatch Exact with resourceVersion "0" is invalid (use NotOlderThan)`)
	}
	if cont != "" {
		if match != "" {
			return invalidOptions("resourceVersionMatch cannot be combined with a continue token")
		}
		if rv != "" && rv != "0" {
			return invalidOptions("a continue token cannot be combined with resourceVersion %q: the token carries its version", rv)
		}
	}
	return nil
}

func (o WatchOptions) query() (url.Values, error) {
	switch o.ResourceVersionMatch {
	case "", MatchNotOlderThan:
	case MatchExact:
		return nil, invalidOptions("resourceVersionMatch Exact is not valid for a watch")
	default:
		return nil, invalidOptions("resourceVersionMatch %q is not Exact or NotOlderThan", o.ResourceVersionMatch)
	}
	if o.SendInitialEvents == nil && o.ResourceVersionMatch != "" {
		return nil, invalidOptions("resourceVersionMatch is only valid for a watch with sendInitialEvents")
	}
	if o.SendInitialEvents != nil && o.ResourceVersionMatch != MatchNotOlderThan {
		return nil, invalidOptions("sendInitialEvents needs resourceVersionMatch NotOlderThan")
	}
	if o.SendInitialEvents != nil && *o.SendInitialEvents && !o.AllowWatchBookmarks {
		return nil, invalidOptions("sendInitialEvents needs allowWatchBookmarks: the initial events end with a bookmark")
	}
	if o.TimeoutSeconds < 0 {
		return nil, invalidOptions("timeoutSeconds %d is negative", o.TimeoutSeconds)
	}
	q, err := selectorQuery(o.LabelSelector, o.FieldSelector)
	if err != nil {
		return nil, err
	}
	q.Set("watch", "true")
	setNonEmpty(q, "resourceVersion", o.ResourceVersion)
	setNonEmpty(q, "resourceVersionMatch", string(o.ResourceVersionMatch))
	if o.AllowWatchBookmarks {
		q.Set("allowWatchBookmarks", "true")
	}
	if o.SendInitialEvents != nil {
		q.Set("sendInitialEvents", strconv.FormatBool(*o.SendInitialEvents))
	}
	if o.TimeoutSeconds > 0 {
		q.Set("timeoutSeconds", strconv.FormatInt(o.TimeoutSeconds, 10))
	}
	if err := setShardSelector(q, o.ShardSelector); err != nil {
		return nil, err
	}
	return q, nil
}

func writeQuery(dryRun bool, manager string, validation FieldValidation) (url.Values, error) {
	q := url.Values{}
	if dryRun {
		q.Set("dryRun", "All")
	}
	setNonEmpty(q, "fieldManager", manager)
	switch validation {
	case "", FieldValidationIgnore, FieldValidationWarn, FieldValidationStrict:
	default:
		return nil, invalidOptions("fieldValidation %q is not Ignore, Warn or Strict", validation)
	}
	setNonEmpty(q, "fieldValidation", string(validation))
	return q, nil
}

func (o CreateOptions) query() (url.Values, error) {
	return writeQuery(o.DryRun, o.FieldManager, o.FieldValidation)
}

func (o UpdateOptions) query() (url.Values, error) {
	return writeQuery(o.DryRun, o.FieldManager, o.FieldValidation)
}

func (o PatchOptions) query(pt PatchType) (url.Values, error) {
	q, err := writeQuery(o.DryRun, o.FieldManager, o.FieldValidation)
	if err != nil {
		return nil, err
	}
	if pt == ApplyPatch {
		if o.FieldManager == "" {
			return nil, invalidOptions("an apply patch needs a fieldManager")
		}
		if o.Force {
			q.Set("force", "true")
		}
	} else if o.Force {
		return nil, invalidOptions("force is only valid for an apply patch")
	}
	return q, nil
}

func selectorQuery(labels, fields Selector) (url.Values, error) {
	q := url.Values{}
	ls, err := selectorString("labelSelector", labels)
	if err != nil {
		return nil, err
	}
	fs, err := selectorString("fieldSelector", fields)
	if err != nil {
		return nil, err
	}
	setNonEmpty(q, "labelSelector", ls)
	setNonEmpty(q, "fieldSelector", fs)
	return q, nil
}

func setNonEmpty(q url.Values, k, v string) {
	if v != "" {
		q.Set(k, v)
	}
}
