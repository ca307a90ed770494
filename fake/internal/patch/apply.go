package patch

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/managedfields"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// DecodeApplied decodes a server-side apply body (YAML or JSON).
func DecodeApplied(body []byte) (map[string]any, *apierr.Error) {
	j, err := codec.YAMLToJSON(body)
	if err != nil {
		return nil, apierr.BadRequest("error decoding YAML: " + request.YAMLError(err))
	}
	var u unstructured.Unstructured
	if err := u.UnmarshalJSON(j); err != nil || u.Object == nil {
		return nil, apierr.BadRequest("error decoding YAML: " + errString(err))
	}
	return u.Object, nil
}

func errString(err error) string {
	if err == nil {
		return "not an object"
	}
	return err.Error()
}

// GvkString is how kube-apiserver prints a group, version and kind.
func GvkString(apiVersion, kind string) string {
	if !strings.Contains(apiVersion, "/") {
		apiVersion = "/" + apiVersion
	}
	return apiVersion + ", Kind=" + kind
}

// checkApplied refuses an applied configuration of another kind or with
// managedFields, as kube-apiserver's field manager does.
func checkApplied(res *object.Resource, applied map[string]any) *apierr.Error {
	apiVersion, _ := applied["apiVersion"].(string)
	kind, _ := applied["kind"].(string)
	if kind != res.Kind.Kind || !sameGroup(apiVersion, res.Kind.APIVersion()) {
		return apierr.BadRequest("invalid object type: " + GvkString(apiVersion, kind))
	}
	if apiVersion != res.Kind.APIVersion() {
		return apierr.BadRequest(fmt.Sprintf("Incorrect version specified in apply patch. Specified patch version: %s, expected: %s", apiVersion, res.Kind.APIVersion()))
	}
	if meta, ok := applied["metadata"].(map[string]any); ok {
		if _, ok := meta["managedFields"]; ok {
			return apierr.BadRequest("metadata.managedFields must be nil")
		}
	}
	var unknown, typeErrs []string
	if res.Custom {
		if res.CRD != nil {
			unknown = res.CRD.Schema.Prune(schemaCopy(applied))
		}
	} else {
		b, _ := json.Marshal(applied)
		t := res.NewTyped()
		unknown = object.UnknownFieldPaths(b, reflect.TypeOf(t))
		typeErrs = applyTypeErrors(applied, reflect.TypeOf(t).Elem(), res.FieldType())
	}
	for _, u := range unknown {
		typeErrs = append(typeErrs, "."+u+": field not declared in schema")
	}
	if len(typeErrs) > 0 {
		msg := typeErrs[0]
		if len(typeErrs) > 1 {
			msg = "errors:\n  " + strings.Join(typeErrs, "\n  ")
		}
		return apierr.InternalMessage(fmt.Sprintf("failed to create typed patch object (%s; %s): %s", appliedNamespacedName(applied), GvkString(apiVersion, kind), msg))
	}
	return nil
}

// appliedNamespacedName prints the applied object's namespace and name
// as kube-apiserver's metadata accessor reads them ("" when not a
// string).
func appliedNamespacedName(applied map[string]any) string {
	meta, _ := applied["metadata"].(map[string]any)
	ns, _ := meta["namespace"].(string)
	name, _ := meta["name"].(string)
	return ns + "/" + name
}

// schemaCopy deep-copies a decoded object, for pruning a copy.
func schemaCopy(m map[string]any) map[string]any {
	c, _ := fieldpath.DeepCopy(m).(map[string]any)
	return c
}

// sameGroup reports whether two apiVersions name the same group.
func sameGroup(a, b string) bool {
	ga, _, _ := strings.Cut(a, "/")
	gb, _, _ := strings.Cut(b, "/")
	if !strings.Contains(a, "/") {
		ga = ""
	}
	if !strings.Contains(b, "/") {
		gb = ""
	}
	return ga == gb
}

// applyTo runs a server-side apply on the live object old and returns
// the object to store, with its managedFields.
func (pr *Patcher) Apply(r *request.Request, old *object.Draft, applied map[string]any, o request.WriteOptions, unknown *[]string) (*object.Draft, error) {
	res := r.Res
	if aerr := checkApplied(res, applied); aerr != nil {
		return nil, aerr
	}
	empty, err := res.EmptyObject()
	if err != nil {
		return nil, err
	}
	live := empty
	var entries []metav1.ManagedFieldsEntry
	if old != nil {
		if live, err = old.ObjectMap(); err != nil {
			return nil, err
		}
		entries = old.Meta.ManagedFields
	}
	managed, err := managedfields.Decode(entries)
	if err != nil {
		return nil, apierr.InternalMessage("failed to decode managed fields: " + err.Error())
	}
	ep := managedfields.ForResource(res, r.Subresource, pr.Now())
	merged, managed, err := ep.Apply(empty, live, applied, managed, o.Manager, o.Force)
	if conflicts, ok := err.(managedfields.ConflictError); ok {
		return nil, ApplyConflictError(conflicts)
	}
	if err != nil {
		return nil, err
	}
	if merged == nil {
		merged = live
	}
	if !res.Custom {
		if terr := object.TimeParseError(reflect.TypeOf(res.NewTyped()).Elem(), merged); terr != nil {
			gvk := GvkString(res.Kind.APIVersion(), res.Kind.Kind)
			return nil, apierr.InternalMessage(fmt.Sprintf("failed to convert new object (%s; %s) to proper version: unable to convert unstructured object to %s: %v",
				appliedNamespacedName(applied), gvk, gvk, terr))
		}
	}
	d, aerr := pr.decode(res, merged, unknown, o.Level, nil, nil)
	if aerr != nil {
		return nil, aerr
	}
	d.Meta.ManagedFields = managed.Encode()
	return d, nil
}

// ApplyConflictError is the 409 of an apply that would change other
// managers' fields.
func ApplyConflictError(c managedfields.ConflictError) *apierr.Error {
	d := &metav1.StatusDetails{}
	for _, x := range c {
		d.Causes = append(d.Causes, metav1.StatusCause{Type: metav1.CauseTypeFieldManagerConflict, Message: "conflict with " + x.Manager.Describe(), Field: x.Path.String()})
	}
	return apierr.New(http.StatusConflict, "Conflict", c.Message(), d)
}
