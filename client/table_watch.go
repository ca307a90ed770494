package client

import (
	"context"
	"encoding/json"
	"net/http"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/internal/runtime/errtext"
)

// acceptTableOnly asks for Tables and nothing else: a watch event that
// is not a Table cannot be made into one the way ListTable makes one
// from a list, so a server that cannot print the resource says so
// (406, ErrNotAcceptable) instead.
const acceptTableOnly = codec.MediaTypeJSON + ";as=Table;g=meta.k8s.io;v=v1"

// TableEvent is one change seen by WatchTable: the changed object
// printed as a Table row, with the columns of the resource's printer
// (kubectl get --watch).
type TableEvent struct {
	Type EventType
	// Table holds the row of the changed object (kube-apiserver sends
	// one row per event); ColumnDefinitions are sent with the first
	// event only, and a row not as wide as them ends the watch
	// (ErrMalformed). Each row's Object is the object's metadata
	// (PartialObjectMetadata, in JSON).
	Table *metav1.Table
	// ResourceVersion is the changed object's: the version to resume a
	// watch from after this event.
	ResourceVersion string
	// InitialEventsEnd is true for the bookmark that ends the initial
	// events of a streaming list.
	InitialEventsEnd bool
}

// TableWatcher reads the events of WatchTable. Like Watcher it is for
// one goroutine, except Close, and nothing runs in the background.
type TableWatcher struct {
	*watchConn
	columns int // the columns of the first event that had them; -1 before
}

// WatchTable watches the collection as kube-apiserver prints it (the
// Accept application/json;as=Table;v=v1;g=meta.k8s.io with watch=true,
// as kubectl get --watch does). It ends as Watch ends: on the server's
// end (io.EOF), an ERROR event (*StatusError), ctx, Close or
// IdleTimeout. A server that cannot print the resource answers 406
// (ErrNotAcceptable); WatchOptions.Decoder does not apply (Tables are
// JSON).
func (r *Resource[T]) WatchTable(ctx context.Context, opts WatchOptions) (*TableWatcher, error) {
	p, err := r.collectionPath("watch")
	if err != nil {
		return nil, err
	}
	q, err := opts.query()
	if err != nil {
		return nil, err
	}
	conn, err := openWatch(ctx, p, opts, nil, r.c.maxEvent, func(wctx context.Context) (*http.Response, error) {
		return r.c.stream(wctx, &request{method: "GET", path: p, query: q, accept: acceptTableOnly})
	})
	if err != nil {
		return nil, err
	}
	w := &TableWatcher{watchConn: conn, columns: -1}
	return w, nil
}

// Next blocks until the next event; after an error every call returns
// the same error.
func (w *TableWatcher) Next() (TableEvent, error) {
	if w.err != nil {
		return TableEvent{}, w.err
	}
	ev, err := w.next()
	if err != nil {
		w.fail(err)
		return TableEvent{}, w.err
	}
	w.active()
	return ev, nil
}

// rowMeta is what a row's object says of itself.
type rowMeta struct {
	Metadata struct {
		ResourceVersion string            `json:"resourceVersion"`
		Annotations     map[string]string `json:"annotations"`
	} `json:"metadata"`
}

func (w *TableWatcher) next() (TableEvent, error) {
	t := new(metav1.Table)
	typ, err := w.events.NextObject(t)
	if err != nil {
		if typ == "" || typ == codec.EventError {
			return TableEvent{}, err
		}
		return TableEvent{}, errorf("watch %s event: %w", typ, err)
	}
	switch EventType(typ) {
	case Added, Modified, Deleted, Bookmark:
	default:
		return TableEvent{}, errorf("watch: unknown event type %q: %w", errtext.Cut(typ), codec.ErrMalformed)
	}
	if t.Kind != "Table" || t.APIVersion != tableAPIVersion {
		return TableEvent{}, errorf("watch %s event: a %s %s, want a %s Table: %w", typ, errtext.Cut(t.APIVersion), errtext.Cut(t.Kind), tableAPIVersion, codec.ErrMalformed)
	}
	if len(t.Rows) != 1 {
		return TableEvent{}, errorf("watch %s event: a Table of %d rows, want one: %w", typ, len(t.Rows), codec.ErrMalformed)
	}
	if w.columns < 0 && len(t.ColumnDefinitions) > 0 {
		w.columns = len(t.ColumnDefinitions)
	}
	if w.columns >= 0 {
		if err := checkRowWidths(t.Rows, w.columns); err != nil {
			return TableEvent{}, errorf("watch %s event: %w", typ, err)
		}
	}
	ev := TableEvent{Type: EventType(typ), Table: t, ResourceVersion: t.ResourceVersion}
	var m rowMeta
	if raw := t.Rows[0].Object.Raw; len(raw) > 0 && json.Unmarshal(raw, &m) == nil {
		if m.Metadata.ResourceVersion != "" {
			ev.ResourceVersion = m.Metadata.ResourceVersion
		}
		ev.InitialEventsEnd = ev.Type == Bookmark && m.Metadata.Annotations[InitialEventsEndAnnotation] == "true"
	}
	return ev, nil
}

// Close ends the watch and releases its connection; a Next blocked in
// another goroutine returns ErrWatchClosed. It always returns nil.
func (w *TableWatcher) Close() error {
	w.release(ErrWatchClosed)
	return nil
}
