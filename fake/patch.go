package fake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/patch"
)

// Patch content types.
const (
	patchJSON      = "application/json-patch+json"
	patchMerge     = "application/merge-patch+json"
	patchStrategic = "application/strategic-merge-patch+json"
	patchApply     = "application/apply-patch+yaml"
)

func (s *Server) servePatch(w http.ResponseWriter, req *http.Request, r *request) {
	out, dry, aerr := s.writeOptions(req, r)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	level, aerr := parseValidation(req.URL.Query().Get("fieldValidation"))
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	ct := req.Header.Get("Content-Type")
	mt, err := codec.ParseMediaType(ct)
	pt := mt.Essence()
	if err != nil || (pt != patchJSON && pt != patchMerge && pt != patchStrategic && pt != patchApply) || (pt == patchStrategic && r.res.custom) {
		writeError(w, req, newStatus(http.StatusUnsupportedMediaType, "UnsupportedMediaType", fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml (got %q)", ct), nil))
		return
	}
	body, aerr := readBody(req)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	manager := req.URL.Query().Get("fieldManager")
	if pt == patchApply && manager == "" {
		writeError(w, req, errInvalid("meta.k8s.io", "PatchOptions", "", fieldCause{typ: "FieldValueRequired", field: "fieldManager", msg: "Required value: is required for apply patch"}))
		return
	}
	var applied map[string]any
	if pt == patchApply {
		j, err := codec.YAMLToJSON(body)
		if err == nil {
			err = json.Unmarshal(j, &applied)
		}
		if err != nil || applied == nil {
			writeError(w, req, errBadRequest("error decoding YAML: "+errString(err)))
			return
		}
	}
	var unknown []string
	created := false
	nsExists := !r.res.kind.Namespaced || s.namespaceExists(r.ns) // checked before the store's lock is held
	res := r.res
	key := objectKey(r.ns, r.name)
	o, _, err := s.store.write(res, key, dry, func(cur *storedObject, rv uint64) (string, *storedObject, error) {
		if cur == nil {
			if pt != patchApply || r.sub != "" {
				return "", nil, errNotFound(res, r.name)
			}
			created = true
			return s.applyCreate(r, applied, manager, rv, &unknown, level, nsExists)
		}
		old, err := res.draftOf(cur)
		if err != nil {
			return "", nil, err
		}
		doc, err := old.toMap()
		if err != nil {
			return "", nil, err
		}
		var result any
		switch pt {
		case patchJSON:
			result, err = patch.JSONPatch(doc, body)
		case patchMerge, patchStrategic:
			var p any
			if err = json.Unmarshal(body, &p); err != nil {
				return "", nil, errBadRequest("error decoding patch: " + err.Error())
			}
			if pt == patchMerge {
				result = patch.Merge(doc, p)
			} else {
				result, err = patch.Strategic(doc, p, patch.BuiltinMergeKey)
			}
		case patchApply:
			keys := patch.BuiltinMergeKey
			if res.custom {
				keys = patch.NoMergeKey
			}
			result, err = patch.Strategic(doc, applied, keys)
		}
		if err != nil {
			if ae, ok := err.(*apiError); ok {
				return "", nil, ae
			}
			return "", nil, newStatus(http.StatusUnprocessableEntity, "Invalid", err.Error(), nil)
		}
		d, aerr := s.patchedDraft(res, result, &unknown, level, func(b []byte, detail string) *apiError {
			// kube-apiserver names the field "patch" and shows the
			// patched object (JSON and merge patches) or the patch map
			// (strategic merge) as the invalid value, in a 422.
			bad := string(b)
			if pt == patchStrategic {
				var p any
				_ = json.Unmarshal(body, &p)
				bad = fmt.Sprintf("%+v", p)
			}
			return errInvalid("", "", "", fieldCause{typ: metav1.CauseTypeFieldValueInvalid, field: "patch",
				msg: "Invalid value: " + strconv.Quote(bad) + ": " + detail})
		})
		if aerr != nil {
			return "", nil, aerr
		}
		if d.meta.ResourceVersion != "" && d.meta.ResourceVersion != strconv.FormatUint(cur.rv, 10) {
			return "", nil, errConflict(res, r.name)
		}
		if d.meta.Name != r.name || (res.kind.Namespaced && d.meta.Namespace != r.ns) {
			return "", nil, errBadRequest("metadata.name and metadata.namespace cannot be changed by a patch")
		}
		if pt == patchApply {
			setApplyManager(d, applied, manager, s.nowTime())
		}
		next, err := s.mergeUpdate(old, d, r.sub == "status")
		if err != nil {
			return "", nil, err
		}
		return s.commitChange(cur, old, next, rv)
	})
	if err != nil {
		writeError(w, req, asAPIError(err))
		return
	}
	if level == validationWarn {
		for _, u := range quoteUnknown(unknown) {
			w.Header().Add("Warning", "299 - "+strconv.Quote(u))
		}
	}
	code := http.StatusOK
	if created {
		code = http.StatusCreated
	}
	s.writeObject(w, req, code, o, out)
}

func errString(err error) string {
	if err == nil {
		return "not an object"
	}
	return err.Error()
}

// patchedDraft decodes a patch result as the kind, collecting unknown
// fields.
//
// invalid, when set, makes the error for a result that does not decode
// (or has unknown fields under Strict validation), given the result's
// JSON and the decoding error; nil gives a 400 as for a request body.
func (s *Server) patchedDraft(res *resource, result any, unknown *[]string, level validation, invalid func(b []byte, detail string) *apiError) (*draft, *apiError) {
	b, err := json.Marshal(result)
	if err != nil {
		return nil, errInternal(err)
	}
	fail := func(err error) *apiError {
		if invalid != nil {
			return invalid(b, strings.TrimPrefix(err.Error(), errBadBody.Error()+": "))
		}
		return res.cannotHandle(err)
	}
	d, unk, err := res.decodeJSONDraft(b)
	if err != nil {
		return nil, fail(err)
	}
	if len(unk) > 0 && level == validationStrict {
		return nil, fail(fmt.Errorf("strict decoding error: %s", joinComma(quoteUnknown(unk))))
	}
	*unknown = append(*unknown, unk...)
	if aerr := d.checkTypeMeta(); aerr != nil {
		return nil, aerr
	}
	return d, nil
}

// applyCreate creates an object from a server-side apply configuration.
func (s *Server) applyCreate(r *request, applied map[string]any, manager string, rv uint64, unknown *[]string, level validation, nsExists bool) (string, *storedObject, error) {
	d, aerr := s.patchedDraft(r.res, applied, unknown, level, nil)
	if aerr != nil {
		return "", nil, aerr
	}
	if d.meta.Name == "" {
		d.meta.Name = r.name
	}
	if d.meta.Name != r.name {
		return "", nil, errBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", d.meta.Name, r.name))
	}
	if r.res.kind.Namespaced {
		if !nsExists {
			return "", nil, errNamespaceNotFound(r.ns)
		}
		d.meta.Namespace = r.ns
	}
	if aerr := d.validateName(); aerr != nil {
		return "", nil, aerr
	}
	d.meta.UID = newUID()
	d.meta.CreationTimestamp = s.nowTime()
	d.meta.ResourceVersion = ""
	if r.res.generation {
		d.meta.Generation = 1
	}
	setApplyManager(d, applied, manager, s.nowTime())
	next, err := d.seal(rv)
	return eventAdded, next, err
}

// setApplyManager records manager's applied fields in managedFields (one
// Apply entry per manager; the field set lists the configuration's map
// keys, lists as leaves).
func setApplyManager(d *draft, applied map[string]any, manager string, now metav1.Time) {
	set := fieldSet(applied, true)
	raw, _ := json.Marshal(set)
	entry := metav1.ManagedFieldsEntry{
		Manager: manager, Operation: "Apply", APIVersion: d.res.kind.APIVersion(), Time: &now,
		FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(string(raw)),
	}
	entries := d.meta.ManagedFields[:0:0]
	for _, e := range d.meta.ManagedFields {
		if e.Manager != manager || e.Operation != "Apply" {
			entries = append(entries, e)
		}
	}
	d.meta.ManagedFields = append(entries, entry)
	sort.SliceStable(d.meta.ManagedFields, func(i, j int) bool { return d.meta.ManagedFields[i].Manager < d.meta.ManagedFields[j].Manager })
}

func fieldSet(m map[string]any, root bool) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if root && (k == "apiVersion" || k == "kind") {
			continue
		}
		if root && k == "metadata" {
			mm, _ := v.(map[string]any)
			meta := map[string]any{}
			for mk, mv := range mm {
				if mk == "name" || mk == "namespace" || mk == "resourceVersion" || mk == "managedFields" {
					continue
				}
				if sub, ok := mv.(map[string]any); ok {
					meta["f:"+mk] = fieldSet(sub, false)
				} else {
					meta["f:"+mk] = map[string]any{}
				}
			}
			if len(meta) > 0 {
				out["f:metadata"] = meta
			}
			continue
		}
		if sub, ok := v.(map[string]any); ok {
			child := fieldSet(sub, false)
			child["."] = map[string]any{}
			out["f:"+k] = child
		} else {
			out["f:"+k] = map[string]any{}
		}
	}
	return out
}

func joinComma(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += ", "
		}
		out += v
	}
	return out
}
