package fake

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

func (s *Server) serveGet(w http.ResponseWriter, req *http.Request, r *request) {
	out, aerr := s.negotiate(req, r.res, false, false)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	if rv := req.URL.Query().Get("resourceVersion"); rv != "" {
		n, err := strconv.ParseUint(rv, 10, 64)
		if err != nil {
			writeError(w, req, apierr.BadRequest(fmt.Sprintf("invalid resource version %q: the value must be a decimal number", rv)))
			return
		}
		if cur := s.store.CurrentRV(); n > cur || s.faults.takeTooLarge() {
			writeError(w, req, apierr.TooLargeRV(n, cur))
			return
		}
	}
	o := s.store.Get(r.res, object.Key(r.ns, r.name))
	if o == nil {
		writeError(w, req, apierr.NotFound(r.res.Kind, r.name))
		return
	}
	s.writeObject(w, req, http.StatusOK, o, out)
}

// writeObject answers with one object.
func (s *Server) writeObject(w http.ResponseWriter, req *http.Request, code int, o *object.Stored, out output) {
	body, ct, err := s.encodeObject(o, out)
	if err != nil {
		writeError(w, req, apierr.Internal(err))
		return
	}
	s.writeBody(w, req, code, ct, body)
}

// continueToken is the state of a paginated list; it is opaque to
// clients (base64 of JSON, shaped like kube-apiserver's).
type continueToken struct {
	APIVersion string `json:"v"`
	RV         int64  `json:"rv"` // -1: continue at the newest version (after expiry)
	Start      string `json:"start"`
}

func encodeContinue(rv int64, start string) string {
	b, _ := json.Marshal(continueToken{APIVersion: "meta.k8s.io/v1", RV: rv, Start: start})
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeContinue(s string) (continueToken, error) {
	var t continueToken
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return t, fmt.Errorf("continue key is not valid: %w", err)
	}
	if err := json.Unmarshal(b, &t); err != nil {
		return t, fmt.Errorf("continue key is not valid: %w", err)
	}
	if t.APIVersion != "meta.k8s.io/v1" {
		return t, fmt.Errorf("continue key is not valid: server does not recognize this encoded key")
	}
	if t.RV == 0 || t.RV < -1 || t.Start == "" {
		return t, errors.New("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)")
	}
	return t, nil
}

const expiredContinueMessage = "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list."

func (s *Server) serveList(w http.ResponseWriter, req *http.Request, r *request) {
	opts, aerr := parseListOptions(req.URL.Query(), r.res, false)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	out, aerr := s.negotiate(req, r.res, true, false)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	if opts.shard, aerr = parseShardParam(req.URL.Query().Get("shardSelector"), s.opts.IgnoreShardSelector); aerr != nil {
		writeError(w, req, aerr)
		return
	}
	items, lm, aerr := s.list(r, opts)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	setShardInfo(&lm, r.res, out, opts.shard)
	ct := out.format.contentType()
	if out.as == asTable {
		ct = "application/json"
	}
	bw := s.startBody(w, req, http.StatusOK, ct, -1)
	if err := s.writeList(bw, r.res, out, items, lm); err != nil {
		s.opts.Logger.Debug("fake apiserver: list write", "err", err)
	}
	_ = bw.Close()
}

// list runs a list request: it picks the snapshot the resourceVersion
// semantics ask for, applies selectors and paginates.
func (s *Server) list(r *request, opts *listOptions) ([]*object.Stored, metav1.ListMeta, *apierr.Error) {
	var lm metav1.ListMeta
	limit := opts.limit
	var at uint64 // 0: newest
	start := ""
	exactGone := "The resourceVersion for the provided list is too old."
	switch {
	case opts.cont != "":
		tok, err := decodeContinue(opts.cont)
		if err != nil {
			return nil, lm, apierr.BadRequest("invalid continue token: " + err.Error())
		}
		start = tok.Start
		if tok.RV > 0 {
			at = uint64(tok.RV)
		}
		exactGone = ""
	case opts.rv == "0":
		limit = 0 // served from the watch cache: the limit is ignored
	case opts.rv != "":
		n, _ := strconv.ParseUint(opts.rv, 10, 64)
		cur := s.store.CurrentRV()
		if n > cur || s.faults.takeTooLarge() {
			return nil, lm, apierr.TooLargeRV(n, cur)
		}
		if opts.rvMatch == matchExact || (opts.rvMatch == "" && limit > 0) {
			at = n
			if at == 0 {
				at = cur
			}
		}
	}
	snap, snapRV, err := s.store.Snapshot(r.res, at)
	if errors.Is(err, storage.ErrExpired) {
		if exactGone != "" {
			return nil, lm, apierr.Gone(exactGone)
		}
		e := apierr.Gone(expiredContinueMessage)
		e.Status.ListMeta.Continue = encodeContinue(-1, start)
		return nil, lm, e
	}
	if at != 0 && snapRV < at {
		snapRV = at
	}
	lm.ResourceVersion = strconv.FormatUint(snapRV, 10)
	lo, hi := storage.NamespaceRange(snap, r.ns)
	if start != "" {
		key := strings.TrimPrefix(start, "/")
		if r.ns != "" {
			key = r.ns + "/" + key
		}
		i, _ := slices.BinarySearchFunc(snap, key, storage.ByKey)
		lo = max(lo, i)
	}
	var items []*object.Stored
	i := lo
	for ; i < hi; i++ {
		o := snap[i]
		if !opts.matches(o) {
			continue
		}
		if limit > 0 && int64(len(items)) == limit {
			break
		}
		items = append(items, o)
	}
	if limit > 0 && i < hi && len(items) > 0 {
		last := items[len(items)-1]
		rel := last.Key
		if r.ns != "" {
			rel = last.Name
		}
		lm.Continue = encodeContinue(int64(snapRV), "/"+rel+"\x00")
		if !opts.hasSelectors() {
			// The keys from the page's start on, less the page's limit
			// (kube-apiserver's count, which a shard selector does not
			// filter: see shard.go).
			n := int64(hi-lo) - limit
			lm.RemainingItemCount = &n
		}
	}
	return items, lm, nil
}
