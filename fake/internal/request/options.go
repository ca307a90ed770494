package request

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/shard"
	"github.com/kubewire/kubewire/internal/runtime/selector"
)

// ListOptions are the query parameters of list and watch requests.
type ListOptions struct {
	RV                string // "" when unset
	RVMatch           string
	Limit             int64
	Continue          string
	labels            selector.Labels
	fields            selector.Fields
	AllowBookmarks    bool
	SendInitialEvents *bool
	Timeout           time.Duration // 0 when unset

	Shard *shard.Selector // shard.go; nil: everything
}

func (o *ListOptions) HasSelectors() bool { return !o.labels.Empty() || !o.fields.Empty() }

// Matches applies the selectors to an object.
func (o *ListOptions) Matches(obj *object.Stored) bool {
	if !o.Shard.Matches(obj) || !o.labels.Matches(obj.Labels) {
		return false
	}
	if o.fields.Empty() {
		return true
	}
	values := make(map[string]string, 4)
	for _, t := range o.fields.Terms() {
		values[t.Field] = obj.FieldValue(t.Field)
	}
	return o.fields.Matches(values)
}

// ParseListOptions reads and validates list or watch options the way
// kube-apiserver does: option syntax errors are 400, invalid combinations
// 422 naming ListOptions.
func ParseListOptions(q url.Values, r *object.Resource, watch bool) (*ListOptions, *apierr.Error) {
	o := &ListOptions{RV: q.Get("resourceVersion"), RVMatch: q.Get("resourceVersionMatch"), Continue: q.Get("continue")}
	var err error
	if v := q.Get("limit"); v != "" {
		if o.Limit, err = strconv.ParseInt(v, 10, 64); err != nil {
			return nil, apierr.BadRequest(fmt.Sprintf("strconv.ParseInt: parsing %q: invalid syntax", v))
		}
		o.Limit = max(o.Limit, 0)
	}
	if o.labels, err = selector.ParseLabels(q.Get("labelSelector")); err != nil {
		return nil, apierr.BadRequest(selectorMessage(err))
	}
	if o.fields, err = selector.ParseFields(q.Get("fieldSelector")); err != nil {
		return nil, apierr.BadRequest(selectorMessage(err))
	}
	if err := o.fields.Check(r.Selectable); err != nil {
		return nil, unknownFieldSelector(r, o.fields)
	}
	o.AllowBookmarks = isTrue(q.Get("allowWatchBookmarks"))
	if v, ok := q["sendInitialEvents"]; ok && len(v) > 0 {
		b := isTrue(v[0])
		o.SendInitialEvents = &b
	}
	if v := q.Get("timeoutSeconds"); v != "" {
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, apierr.BadRequest(fmt.Sprintf("strconv.ParseInt: parsing %q: invalid syntax", v))
		}
		secs = max(secs, 0)
		o.Timeout = time.Duration(secs) * time.Second
	}
	if o.RV != "" {
		if _, err := strconv.ParseUint(o.RV, 10, 64); err != nil {
			return nil, apierr.BadRequest(fmt.Sprintf("invalid resource version: resourceVersion: Invalid value: %q: strconv.ParseUint: parsing %q: invalid syntax", o.RV, o.RV))
		}
	}
	if watch {
		return o, o.validateWatch()
	}
	return o, o.validateList()
}

// unknownFieldSelector is the 400 of a field selector on a field the
// resource does not index: kinds with field label conversions of their
// own name the field, the others list what they take.
func unknownFieldSelector(r *object.Resource, f selector.Fields) *apierr.Error {
	field := ""
	for _, t := range f.Terms() {
		if !r.Selectable(t.Field) {
			field = t.Field
			break
		}
	}
	if len(r.Fields) > 0 && !r.Custom {
		return apierr.BadRequest("field label not supported: " + field)
	}
	known := []string{strconv.Quote("metadata.name")}
	if r.Kind.Namespaced {
		known = append(known, strconv.Quote("metadata.namespace"))
	}
	for _, f := range r.Fields {
		known = append(known, strconv.Quote(f))
	}
	return apierr.BadRequest(fmt.Sprintf("%q is not a known field selector: only %s", field, strings.Join(known, ", ")))
}

func selectorMessage(err error) string {
	msg := err.Error()
	if u := errors.Unwrap(err); u != nil {
		if after, ok := cutPrefix(msg, u.Error()+": "); ok {
			msg = after
		}
	}
	// kube-apiserver quotes what it found in single quotes.
	if before, rest, ok := strings.Cut(msg, `found "`); ok {
		if lit, after, ok := strings.Cut(rest, `", expected`); ok {
			msg = before + "found '" + lit + "' expected" + after
		}
	}
	return msg
}

func cutPrefix(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):], true
	}
	return s, false
}

const (
	MatchExact        = "Exact"
	matchNotOlderThan = "NotOlderThan"
)

func ForbiddenCause(field, msg string) apierr.Cause {
	return apierr.Cause{Type: "FieldValueForbidden", Field: field, Message: "Forbidden: " + msg}
}

func (o *ListOptions) validateList() *apierr.Error {
	var causes []apierr.Cause
	if o.RVMatch != "" {
		if o.RV == "" {
			causes = append(causes, ForbiddenCause("resourceVersionMatch", "resourceVersionMatch is forbidden unless resourceVersion is provided"))
		}
		if o.Continue != "" {
			causes = append(causes, ForbiddenCause("resourceVersionMatch", "resourceVersionMatch is forbidden when continue is provided"))
		}
		if o.RVMatch != MatchExact && o.RVMatch != matchNotOlderThan {
			causes = append(causes, apierr.Cause{Type: "FieldValueNotSupported", Field: "resourceVersionMatch",
				Message: fmt.Sprintf(`Unsupported value: %q: supported values: "Exact", "NotOlderThan", ""`, o.RVMatch)})
		}
		if o.RVMatch == MatchExact && o.RV == "0" {
			causes = append(causes, ForbiddenCause("resourceVersionMatch", `resourceVersionMatch "exact" is forbidden for resourceVersion "0"`))
		}
	}
	if o.SendInitialEvents != nil {
		causes = append(causes, ForbiddenCause("sendInitialEvents", "sendInitialEvents is forbidden for list"))
	}
	if len(causes) > 0 {
		return apierr.InvalidOptions(causes...)
	}
	if o.Continue != "" && o.RV != "" && o.RV != "0" {
		return apierr.BadRequest("specifying resource version is not allowed when using continue")
	}
	return nil
}

func (o *ListOptions) validateWatch() *apierr.Error {
	var causes []apierr.Cause
	if o.SendInitialEvents != nil {
		if o.RVMatch != matchNotOlderThan {
			causes = append(causes, ForbiddenCause("resourceVersionMatch", "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"))
		}
		if !o.AllowBookmarks && *o.SendInitialEvents {
			causes = append(causes, ForbiddenCause("allowWatchBookmarks", "sendInitialEvents requires setting allowWatchBookmarks to true"))
		}
	} else if o.RVMatch != "" {
		causes = append(causes, ForbiddenCause("resourceVersionMatch", "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"))
	}
	if o.RVMatch != "" && o.RVMatch != matchNotOlderThan {
		causes = append(causes, apierr.Cause{Type: "FieldValueNotSupported", Field: "resourceVersionMatch",
			Message: fmt.Sprintf(`Unsupported value: %q: supported values: "NotOlderThan"`, o.RVMatch)})
	}
	if len(causes) > 0 {
		return apierr.InvalidOptions(causes...)
	}
	return nil
}

// DryRun reports whether the request asks for dryRun=All; any other value
// is a 400.
func DryRun(q url.Values) (bool, *apierr.Error) {
	vals := q["dryRun"]
	for _, v := range vals {
		if v != "All" {
			return false, apierr.BadRequest(fmt.Sprintf("dryRun: Unsupported value: %q: supported values: \"All\"", v))
		}
	}
	return len(vals) > 0, nil
}

// ParseShardParam reads the shardSelector query parameter: nil when it
// is absent or empty, or when the server ignores it (ignore set).
func ParseShardParam(v string, ignore bool) (*shard.Selector, *apierr.Error) {
	if v == "" || ignore {
		return nil, nil
	}
	sel, err := shard.Parse(v)
	if err != nil {
		return nil, apierr.New(http.StatusInternalServerError, "", "invalid shard selector: "+err.Error(), nil)
	}
	return sel, nil
}

// SetShardInfo sets lm.shardInfo on a sharded list as kube-apiserver
// does: on the lists of built-in kinds only (custom resources are listed
// as UnstructuredList, which has no shardInfo), and not in the
// PartialObjectMetadataList and Table forms, which do not copy it.
func SetShardInfo(lm *metav1.ListMeta, r *object.Resource, out Output, sel *shard.Selector) {
	if sel == nil || r.Custom || out.As == asPartialList || out.As == AsTable {
		return
	}
	lm.ShardInfo = &metav1.ShardInfo{Selector: sel.String()}
}
