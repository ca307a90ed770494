package request

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/apierr"
)

// DeleteOptions is the part of a DeleteOptions body the fake honours.
type DeleteOptions struct {
	Preconditions *struct {
		UID             *string `json:"uid,omitempty"`
		ResourceVersion *string `json:"resourceVersion,omitempty"`
	} `json:"preconditions,omitempty"`
	DryRun             []string `json:"dryRun,omitempty"`
	GracePeriodSeconds *int64   `json:"gracePeriodSeconds,omitempty"`
	PropagationPolicy  *string  `json:"propagationPolicy,omitempty"`
	// OrphanDependents=false turns the 200 of a deferred deletion into
	// a 202, as kube-apiserver does for backward compatibility.
	OrphanDependents *bool `json:"orphanDependents,omitempty"`
}

func readDeleteOptions(req *http.Request) (*DeleteOptions, *apierr.Error) {
	body, aerr := ReadBody(req)
	if aerr != nil {
		return nil, aerr
	}
	o := &DeleteOptions{}
	if len(body) == 0 {
		// Without a body, kube-apiserver reads DeleteOptions from the query.
		// (a dryRun other than All is then a 422 of DeleteOptions, as
		// in a body, not the 400 of other verbs' query)
		q := req.URL.Query()
		o.DryRun = q["dryRun"]
		if v := q.Get("orphanDependents"); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, apierr.BadRequest(fmt.Sprintf("orphanDependents: invalid value %q", v))
			}
			o.OrphanDependents = &b
		}
		if v, ok := q["propagationPolicy"]; ok && len(v) > 0 {
			o.PropagationPolicy = &v[0]
		}
		if v := q.Get("gracePeriodSeconds"); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return nil, apierr.BadRequest(fmt.Sprintf("strconv.ParseInt: parsing %q: invalid syntax", v))
			}
			o.GracePeriodSeconds = &n
		}
	} else if mt, err := codec.ParseMediaType(req.Header.Get("Content-Type")); err == nil && mt.IsProtobuf() {
		return o, nil // protobuf DeleteOptions: options are not read
	} else if err := json.Unmarshal(body, o); err != nil {
		return nil, apierr.BadRequest("DeleteOptions in version \"v1\" cannot be handled as a DeleteOptions: " + err.Error())
	}
	return o, o.validate()
}

// validate checks the options as kube-apiserver does (422 naming
// DeleteOptions).
func (o *DeleteOptions) validate() *apierr.Error {
	var causes []apierr.Cause
	if o.OrphanDependents != nil && o.PropagationPolicy != nil {
		causes = append(causes, apierr.Cause{Type: "FieldValueInvalid", Field: "propagationPolicy",
			Message: fmt.Sprintf("Invalid value: %q: orphanDependents and deletionPropagation cannot be both set", *o.PropagationPolicy)})
	}
	if p := o.PropagationPolicy; p != nil && *p != PropagateForeground && *p != PropagateBackground && *p != PropagateOrphan {
		causes = append(causes, apierr.Cause{Type: "FieldValueNotSupported", Field: "propagationPolicy",
			Message: fmt.Sprintf(`Unsupported value: %q: supported values: "Foreground", "Background", "Orphan", "nil"`, *p)})
	}
	if slices.ContainsFunc(o.DryRun, func(v string) bool { return v != "All" }) {
		// One error naming the whole list, as ValidateDryRun words it.
		b, _ := json.Marshal(o.DryRun)
		causes = append(causes, apierr.Cause{Type: "FieldValueNotSupported", Field: "dryRun", Message: fmt.Sprintf(`Unsupported value: %s: supported values: "All"`, b)})
	}
	if len(causes) > 0 {
		return apierr.Invalid("meta.k8s.io", "DeleteOptions", "", causes...)
	}
	return nil
}

// Propagation policies of a delete.
const (
	PropagateForeground = "Foreground"
	PropagateBackground = "Background"
	PropagateOrphan     = "Orphan"
)

// DeleteParams reads a delete's options and whether it is a dry run.
// With a body, kube-apiserver reads none of the query's options, dryRun
// included: a DELETE ?dryRun=All with a body deletes.
func DeleteParams(req *http.Request) (bool, *DeleteOptions, *apierr.Error) {
	opts, aerr := readDeleteOptions(req)
	if aerr != nil {
		return false, nil, aerr
	}
	return slices.Contains(opts.DryRun, "All"), opts, nil
}
