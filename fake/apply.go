package fake

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/managedfields"
)

// decodeApplied decodes a server-side apply body (YAML or JSON).
func decodeApplied(body []byte) (map[string]any, *apiError) {
	j, err := codec.YAMLToJSON(body)
	if err != nil {
		return nil, errBadRequest("error decoding YAML: " + yamlError(err))
	}
	var u unstructured.Unstructured
	if err := u.UnmarshalJSON(j); err != nil || u.Object == nil {
		return nil, errBadRequest("error decoding YAML: " + errString(err))
	}
	return u.Object, nil
}

// yamlError is the YAML converter's own message, as kube-apiserver shows
// it ("error converting YAML to JSON: yaml: line 2: ..."), without the
// codec's wrapping.
func yamlError(err error) string {
	msg := err.Error()
	var de *codec.DecodeError
	if errors.As(err, &de) && de.Err != nil {
		msg = de.Err.Error()
	}
	const prefix = "error converting YAML to JSON: "
	if !strings.HasPrefix(msg, prefix) {
		msg = prefix + msg
	}
	return msg
}

func errString(err error) string {
	if err == nil {
		return "not an object"
	}
	return err.Error()
}

// gvkString is how kube-apiserver prints a group, version and kind.
func gvkString(apiVersion, kind string) string {
	if !strings.Contains(apiVersion, "/") {
		apiVersion = "/" + apiVersion
	}
	return apiVersion + ", Kind=" + kind
}

// checkApplied refuses an applied configuration of another kind or with
// managedFields, as kube-apiserver's field manager does.
func checkApplied(res *resource, applied map[string]any) *apiError {
	apiVersion, _ := applied["apiVersion"].(string)
	kind, _ := applied["kind"].(string)
	if kind != res.kind.Kind || !sameGroup(apiVersion, res.kind.APIVersion()) {
		return errBadRequest("invalid object type: " + gvkString(apiVersion, kind))
	}
	if apiVersion != res.kind.APIVersion() {
		return errBadRequest(fmt.Sprintf("Incorrect version specified in apply patch. Specified patch version: %s, expected: %s", apiVersion, res.kind.APIVersion()))
	}
	if meta, ok := applied["metadata"].(map[string]any); ok {
		if _, ok := meta["managedFields"]; ok {
			return errBadRequest("metadata.managedFields must be nil")
		}
	}
	var unknown []string
	if res.custom {
		if res.crd != nil {
			unknown = res.crd.schema.Prune(schemaCopy(applied))
		}
	} else {
		b, _ := json.Marshal(applied)
		t := res.newTyped()
		unknown = unknownFieldPaths(b, reflect.TypeOf(t))
		var typeErr *json.UnmarshalTypeError
		if err := json.Unmarshal(b, t); errors.As(err, &typeErr) && typeErr.Type.Kind() == reflect.String && len(unknown) == 0 {
			field := typeErr.Field
			v, ok := jsonPathValue(applied, "."+field)
			if m, isMap := v.(map[string]any); ok && isMap {
				// A map of strings: name the entry that is not one.
				for _, k := range sortedMapKeys(m) {
					if _, isString := m[k].(string); !isString {
						field, v = field+"."+k, m[k]
						break
					}
				}
			}
			if ok {
				name, _, _ := unstructured.NestedFieldNoCopy(applied, "metadata", "name")
				return internalError(fmt.Sprintf("failed to create typed patch object (/%v; %s): .%s: expected string, got &value.valueUnstructured{Value:%v}", name, gvkString(apiVersion, kind), field, v))
			}
		}
	}
	if len(unknown) > 0 {
		name, _, _ := unstructured.NestedFieldNoCopy(applied, "metadata", "name")
		msg := "." + unknown[0] + ": field not declared in schema"
		if len(unknown) > 1 {
			lines := []string{"errors:"}
			for _, u := range unknown {
				lines = append(lines, "  ."+u+": field not declared in schema")
			}
			msg = strings.Join(lines, "\n")
		}
		return internalError(fmt.Sprintf("failed to create typed patch object (/%v; %s): %s", name, gvkString(apiVersion, kind), msg))
	}
	return nil
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

// internalError is a 500 whose Status has only a message, as
// kube-apiserver answers errors that are not API errors.
func internalError(msg string) *apiError {
	e := newStatus(http.StatusInternalServerError, "", msg, nil)
	return e
}

// applyTo runs a server-side apply on the live object old and returns
// the object to store, with its managedFields.
func (s *Server) applyTo(r *request, old *draft, applied map[string]any, o writeOpts, unknown *[]string) (*draft, error) {
	res := r.res
	if aerr := checkApplied(res, applied); aerr != nil {
		return nil, aerr
	}
	empty, err := res.emptyObject()
	if err != nil {
		return nil, err
	}
	live := empty
	var entries []metav1.ManagedFieldsEntry
	if old != nil {
		if live, err = old.objectMap(); err != nil {
			return nil, err
		}
		entries = old.meta.ManagedFields
	}
	managed, err := managedfields.Decode(entries)
	if err != nil {
		return nil, internalError("failed to decode managed fields: " + err.Error())
	}
	ep := s.endpoint(res, r.sub)
	merged, managed, err := ep.Apply(empty, live, applied, managed, o.manager, o.force)
	if conflicts, ok := err.(managedfields.ConflictError); ok {
		return nil, errApplyConflict(conflicts)
	}
	if err != nil {
		return nil, err
	}
	if merged == nil {
		merged = live
	}
	d, aerr := s.patchedDraft(res, merged, unknown, o.level, nil)
	if aerr != nil {
		return nil, aerr
	}
	d.meta.ManagedFields = managed.Encode()
	return d, nil
}

// errApplyConflict is the 409 of an apply that would change other
// managers' fields.
func errApplyConflict(c managedfields.ConflictError) *apiError {
	d := &metav1.StatusDetails{}
	for _, x := range c {
		d.Causes = append(d.Causes, metav1.StatusCause{Type: metav1.CauseTypeFieldManagerConflict, Message: "conflict with " + x.Manager.Describe(), Field: x.Path.String()})
	}
	return newStatus(http.StatusConflict, "Conflict", c.Message(), d)
}

// applyCreate creates an object from a server-side apply configuration.
func (s *Server) applyCreate(r *request, call *hookCall, applied map[string]any, o writeOpts, rv uint64, unknown *[]string) (string, *storedObject, error) {
	d, err := s.applyTo(r, nil, applied, o, unknown)
	if err != nil {
		return "", nil, err
	}
	if d.meta.Name == "" {
		d.meta.Name = r.name
	}
	if d.meta.Name != r.name {
		return "", nil, errBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", d.meta.Name, r.name))
	}
	if r.res.kind.Namespaced {
		d.meta.Namespace = r.ns
	}
	if aerr := d.validateName(); aerr != nil {
		return "", nil, aerr
	}
	if aerr := s.admitNew(d, call, storeView{st: s.store, held: true}); aerr != nil {
		return "", nil, aerr
	}
	if aerr := s.validate(d, nil); aerr != nil {
		return "", nil, aerr
	}
	d.meta.ResourceVersion = ""
	if o.dry {
		// kube-apiserver answers a dry-run create without a resource
		// version or managedFields.
		d.meta.ManagedFields = nil
		rv = 0
	}
	next, err := d.seal(rv)
	return eventAdded, next, err
}
