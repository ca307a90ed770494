package admission_test

import (
	"fmt"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/admission"
	"github.com/kubewire/kubewire/fake/internal/admission/strategy"
	"github.com/kubewire/kubewire/fake/internal/admission/validation"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

// labeler is a mutating hook, as a webhook would be.
type labeler struct{}

func (labeler) Mutate(a *admission.Attributes) *apierr.Error {
	obj, _, err := a.ObjectMaps()
	if err != nil {
		return apierr.Internal(err)
	}
	meta := obj["metadata"].(map[string]any)
	meta["labels"] = map[string]any{"admitted": "true"}
	return a.ReplaceObject(obj)
}

func (labeler) Validate(*admission.Attributes) *apierr.Error { return nil }

// A create through the API: the namespace must exist, the hook labels
// the object, the system fields are set, then it is validated.
func ExampleChain_AdmitCreate() {
	builtins := &fieldpath.Builtins{}
	resources := map[string]*object.Resource{}
	for _, r := range []string{"namespaces", "configmaps"} {
		k, _ := registry.ByResource("", "v1", r)
		resources[r], _ = object.Builtin(k, builtins)
	}
	lookup := func(group, version, resource string) *object.Resource { return resources[resource] }
	st := storage.New(100)
	ns, _, _ := resources["namespaces"].DecodeJSON([]byte(`{"metadata":{"name":"default"}}`))
	_, _, _ = st.Write(resources["namespaces"], "default", false, func(*object.Stored, uint64) (string, *object.Stored, error) {
		o, err := ns.Seal(1)
		return storage.Added, o, err
	})

	c := &admission.Chain{Lookup: lookup, Hooks: []admission.Hook{labeler{}}, Validator: validation.New(nil), Strategy: &strategy.Strategy{Now: metav1.Now}, Now: metav1.Now}
	cms := resources["configmaps"]
	d, _, _ := cms.DecodeJSON([]byte(`{"metadata":{"name":"a","namespace":"default"}}`))
	call := &admission.Request{Verb: "create", Resource: cms, Namespace: "default"}
	if aerr := c.AdmitCreate(d, call, storage.View{Store: st}); aerr != nil {
		panic(aerr)
	}
	if aerr := c.Validate(d, nil, call); aerr != nil {
		panic(aerr)
	}
	fmt.Println(d.Meta.Labels["admitted"], d.Meta.UID != "")

	d, _, _ = cms.DecodeJSON([]byte(`{"metadata":{"name":"b","namespace":"elsewhere"}}`))
	aerr := c.AdmitCreate(d, call, storage.View{Store: st})
	fmt.Println(aerr.Status.Code, aerr.Status.Message)
	// Output:
	// true true
	// 404 namespaces "elsewhere" not found
}
