package request

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/shard"
)

// ListOptions are the query parameters of list and watch requests.
type ListOptions struct {
	RV                string // "" when unset
	RVMatch           string
	Limit             int64
	Continue          string
	labels            labelSelector
	fields            fieldSelector
	AllowBookmarks    bool
	SendInitialEvents *bool
	Timeout           time.Duration // 0 when unset

	Shard *shard.Selector // nil: everything
}

func (o *ListOptions) HasSelectors() bool { return len(o.labels) > 0 || len(o.fields) > 0 }

// Matches applies the selectors to an object.
func (o *ListOptions) Matches(obj *object.Stored) bool {
	return o.Shard.Matches(obj) && o.labels.matches(obj.Labels) && o.fields.matches(obj)
}

// ParseListOptions reads and validates list or watch options in
// kube-apiserver's order: the parameters' syntax (400), their
// combinations (422 naming ListOptions), the field selector's labels
// against the kind (400), the resource version (400).
func ParseListOptions(q url.Values, r *object.Resource, watch bool) (*ListOptions, *apierr.Error) {
	o := &ListOptions{RV: q.Get("resourceVersion"), RVMatch: q.Get("resourceVersionMatch"), Continue: q.Get("continue")}
	var err error
	if v := q.Get("limit"); v != "" {
		if o.Limit, err = strconv.ParseInt(v, 10, 64); err != nil {
			return nil, apierr.BadRequest(fmt.Sprintf("strconv.ParseInt: parsing %q: invalid syntax", v))
		}
		o.Limit = max(o.Limit, 0)
	}
	if v := q.Get("timeoutSeconds"); v != "" {
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, apierr.BadRequest(fmt.Sprintf("strconv.ParseInt: parsing %q: invalid syntax", v))
		}
		secs = max(secs, 0)
		o.Timeout = time.Duration(secs) * time.Second
	}
	if o.labels, err = parseLabelSelector(q.Get("labelSelector"), newLabelRules()); err != nil {
		return nil, apierr.BadRequest(err.Error())
	}
	fieldTerms, err := splitFieldSelector(q.Get("fieldSelector"))
	if err != nil {
		return nil, apierr.BadRequest(err.Error())
	}
	o.AllowBookmarks = isTrue(q.Get("allowWatchBookmarks"))
	if v, ok := q["sendInitialEvents"]; ok && len(v) > 0 {
		b := isTrue(v[0])
		o.SendInitialEvents = &b
	}
	var invalid *apierr.Error
	if watch {
		invalid = o.validateWatch()
	} else {
		invalid = o.validateList()
	}
	if invalid != nil {
		return nil, invalid
	}
	if o.fields, err = convertFieldLabels(fieldTerms, r); err != nil {
		return nil, apierr.BadRequest(err.Error())
	}
	if o.RV != "" {
		if _, err := strconv.ParseUint(o.RV, 10, 64); err != nil {
			msg := fmt.Sprintf("resourceVersion: Invalid value: %q: strconv.ParseUint: parsing %q: invalid syntax", o.RV, o.RV)
			if watch && watchCached(r) {
				// A watch's version is parsed by the watch cache, whose
				// storage error is a 500.
				return nil, apierr.New(http.StatusInternalServerError, "", msg, nil)
			}
			return nil, apierr.BadRequest("invalid resource version: " + msg)
		}
	}
	return o, nil
}

// watchCached reports whether kube-apiserver serves the resource's
// watches from its watch cache: every resource but Events, whose cache
// it disables by default.
func watchCached(r *object.Resource) bool {
	return r.Custom || r.Kind.Resource != "events" || (r.Kind.Group != "" && r.Kind.Group != "events.k8s.io")
}

const (
	MatchExact        = "Exact"
	MatchNotOlderThan = "NotOlderThan"
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
		if o.RVMatch != MatchExact && o.RVMatch != MatchNotOlderThan {
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
		if o.RVMatch != MatchNotOlderThan {
			causes = append(causes, ForbiddenCause("resourceVersionMatch", "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"))
		}
	} else if o.RVMatch != "" {
		causes = append(causes, ForbiddenCause("resourceVersionMatch", "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"))
	}
	if o.RVMatch != "" && o.RVMatch != MatchNotOlderThan {
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

// ExactField is the value a field=value term of the field selector
// requires of a field, as kube-apiserver's RequiresExactMatch reads it.
func (o *ListOptions) ExactField(field string) (string, bool) {
	for _, t := range o.fields {
		if t.field == field && !t.not {
			return t.value, true
		}
	}
	return "", false
}
