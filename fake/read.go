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
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

func (s *Server) serveGet(w http.ResponseWriter, req *http.Request, r *request.Request) {
	out, aerr := s.negotiate(req, r.Res, false, false)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	if rv := req.URL.Query().Get("resourceVersion"); rv != "" {
		n, aerr := getResourceVersion(r.Res, rv)
		if aerr != nil {
			request.WriteError(w, req, aerr)
			return
		}
		if cur := s.store.CurrentRV(); n > cur || s.faults.takeTooLarge() {
			request.WriteError(w, req, tooLargeRV(r.Res, n, cur))
			return
		}
		if n > 0 && watchCached(r.Res) {
			s.store.Freshen(r.Res, n)
		}
	}
	o := s.store.Get(r.Res, object.Key(r.Namespace, r.Name))
	if o == nil {
		request.WriteError(w, req, apierr.NotFound(r.Res.Kind, r.Name))
		return
	}
	s.writeObject(w, req, http.StatusOK, o, out)
}

// writeObject answers with one object.
func (s *Server) writeObject(w http.ResponseWriter, req *http.Request, code int, o *object.Stored, out request.Output) {
	if aerr := out.Mismatch(); aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	body, ct, err := s.encodeObject(o, out)
	if err != nil {
		request.WriteError(w, req, apierr.Internal(err))
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

func (s *Server) serveList(w http.ResponseWriter, req *http.Request, r *request.Request) {
	// (the media type is negotiated before the options are read, as
	// kube-apiserver's ListResource does)
	out, aerr := s.negotiate(req, r.Res, true, false)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	opts, aerr := request.ParseListOptions(req.URL.Query(), r.Res, false)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	if opts.Shard, aerr = request.ParseShardParam(req.URL.Query().Get("shardSelector"), s.opts.IgnoreShardSelector); aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	items, lm, aerr := s.list(r, opts)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	items, err := object.ConvertAll(r.Res, items)
	if err != nil {
		request.WriteError(w, req, apierr.Internal(err)) // the conversion webhook failed
		return
	}
	if aerr := out.Mismatch(); aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	request.SetShardInfo(&lm, r.Res, out, opts.Shard)
	ct := out.Format.ContentType()
	if out.As == request.AsTable && out.Format != request.FormatYAML {
		ct = "application/json"
	}
	bw := s.startBody(w, req, http.StatusOK, ct, -1)
	if err := s.writeList(bw, r.Res, out, items, lm); err != nil {
		s.opts.Logger.Debug("fake apiserver: list write", "err", err)
	}
	_ = bw.Close()
}

// list runs a list request: it picks the snapshot the resourceVersion
// semantics ask for, applies selectors and paginates.
func (s *Server) list(r *request.Request, opts *request.ListOptions) ([]*object.Stored, metav1.ListMeta, *apierr.Error) {
	var lm metav1.ListMeta
	limit := opts.Limit
	var at uint64 // 0: newest
	start := ""
	exactGone := "The resourceVersion for the provided list is too old."
	fromCache := false // served by the watch cache as it is, not waiting
	if opts.Continue == "" && opts.RV != "0" && watchCached(r.Res) {
		n, _ := strconv.ParseUint(opts.RV, 10, 64)
		s.store.Freshen(r.Res, n)
	}
	switch {
	case opts.Continue != "":
		tok, err := decodeContinue(opts.Continue)
		if err != nil {
			return nil, lm, apierr.BadRequest("invalid continue token: " + err.Error())
		}
		start = tok.Start
		if tok.RV > 0 {
			at = uint64(tok.RV)
		}
		exactGone = ""
	case opts.RV == "0" && watchCached(r.Res):
		limit = 0 // served from the watch cache: the limit is ignored
		fromCache = true
	case opts.RV != "":
		n, _ := strconv.ParseUint(opts.RV, 10, 64)
		cur := s.store.CurrentRV()
		if n > cur || s.faults.takeTooLarge() {
			return nil, lm, tooLargeRV(r.Res, n, cur)
		}
		if opts.RVMatch == request.MatchExact || (opts.RVMatch == "" && limit > 0) {
			at = n
			if at == 0 {
				at = cur
			}
		}
	}
	snap, snapRV, err := s.store.Snapshot(r.Res, at)
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
	if fromCache {
		// (the watch cache holds the newest state at its version)
		snapRV = s.store.CacheRV(r.Res)
	}
	lm.ResourceVersion = strconv.FormatUint(snapRV, 10)
	lo, hi := storage.NamespaceRange(snap, r.Namespace)
	if name, ok := opts.ExactField("metadata.name"); ok && opts.Continue == "" {
		// kube-apiserver reads only the key a name selector names when
		// it knows the namespace (its store's MatchesSingle), so no
		// other key follows a full page.
		ns := r.Namespace
		if ns == "" {
			ns, _ = opts.ExactField("metadata.namespace")
		}
		if ns != "" || !r.Res.Kind.Namespaced {
			i, found := slices.BinarySearchFunc(snap, object.Key(ns, name), storage.ByKey)
			lo, hi = i, i
			if found {
				hi = i + 1
			}
		}
	}
	if start != "" {
		key := strings.TrimPrefix(start, "/")
		if r.Namespace != "" {
			key = r.Namespace + "/" + key
		}
		i, _ := slices.BinarySearchFunc(snap, key, storage.ByKey)
		lo = max(lo, i)
	}
	indexField, indexValue, indexed := cacheIndex(r.Res, opts)
	var items []*object.Stored
	i := lo
	for ; i < hi; i++ {
		o := snap[i]
		if indexed && o.FieldValue(indexField) != indexValue {
			continue // not among the index's keys
		}
		// A full page stops at the next key whether it matches or not:
		// kube-apiserver (etcd3 store and watch cache alike) gives a
		// continue token whenever any key follows the page.
		if limit > 0 && int64(len(items)) == limit {
			break
		}
		if opts.Matches(o) {
			items = append(items, o)
		}
	}
	if limit > 0 && i < hi && len(items) > 0 {
		last := items[len(items)-1]
		rel := last.Key
		if r.Namespace != "" {
			rel = last.Name
		}
		lm.Continue = encodeContinue(int64(snapRV), "/"+rel+"\x00")
		if !opts.HasSelectors() {
			// The keys from the page's start on, less the page's limit
			// (kube-apiserver's count, which a shard selector does not
			// filter: see package shard).
			n := int64(hi-lo) - limit
			lm.RemainingItemCount = &n
		}
	}
	return items, lm, nil
}

// cacheIndex is the field and value of kube-apiserver's watch-cache
// index a list reads its keys from, when it has one: a Pod or
// ResourceSlice list whose field selector requires spec.nodeName to be
// one value, served from the cache at its newest state (a consistent
// read, resourceVersion=0, NotOlderThan, or a version without limit;
// not an Exact read or a continue, which read a snapshot of every key).
// Its page then ends at the last such key, so a continue token comes
// only when another object of that node follows.
func cacheIndex(res *object.Resource, opts *request.ListOptions) (string, string, bool) {
	const field = "spec.nodeName" // the index of both (v1.36.3)
	pods := res.Kind.Group == "" && res.Kind.Resource == "pods"
	slices := res.Kind.Group == "resource.k8s.io" && res.Kind.Resource == "resourceslices"
	if res.Custom || !pods && !slices || opts.Continue != "" {
		return "", "", false
	}
	switch opts.RVMatch {
	case request.MatchNotOlderThan:
	case "":
		if opts.Limit > 0 && opts.RV != "" && opts.RV != "0" {
			return "", "", false // the legacy exact read
		}
	default:
		return "", "", false
	}
	value, ok := opts.ExactField(field)
	return field, value, ok
}
