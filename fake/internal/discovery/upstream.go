package discovery

import (
	"encoding/json"
	"slices"
	"sync"

	apidiscoveryv2 "github.com/kubewire/kubewire/api/apidiscovery/v2"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/upstream"
)

// Docs are kube-apiserver's recorded documents (package
// upstream), decoded on first use and shared by every request; nothing
// here is modified after it is loaded.
type Docs struct {
	discOnce sync.Once
	disc     *upstream.Discovery
	aggAPI   *apidiscoveryv2.APIGroupDiscoveryList
	aggAPIs  *apidiscoveryv2.APIGroupDiscoveryList
	discErr  error

	tablesOnce sync.Once
	tables     map[string][]metav1.TableColumnDefinition
	tablesErr  error

	v3Once sync.Once
	v3     map[string]json.RawMessage
	v3Err  error

	crdOnce sync.Once
	crd     *upstream.CustomResourceOpenAPI
	crdErr  error
}

func (u *Docs) discovery() (*upstream.Discovery, error) {
	u.discOnce.Do(func() {
		u.disc, u.discErr = upstream.LoadDiscovery()
		if u.discErr != nil {
			return
		}
		u.aggAPI, u.aggAPIs = &apidiscoveryv2.APIGroupDiscoveryList{}, &apidiscoveryv2.APIGroupDiscoveryList{}
		if u.discErr = json.Unmarshal(u.disc.Aggregated["/api"], u.aggAPI); u.discErr == nil {
			u.discErr = json.Unmarshal(u.disc.Aggregated["/apis"], u.aggAPIs)
		}
	})
	return u.disc, u.discErr
}

// aggregated returns a copy of the recorded aggregated discovery of /api
// (legacy) or /apis whose Items the caller may append to.
func (u *Docs) aggregated(legacy bool) (*apidiscoveryv2.APIGroupDiscoveryList, error) {
	if _, err := u.discovery(); err != nil {
		return nil, err
	}
	src := u.aggAPIs
	if legacy {
		src = u.aggAPI
	}
	out := *src
	out.Items = slices.Clone(src.Items)
	return &out, nil
}

// TableColumns returns the recorded Table columns of a built-in
// resource ("group/resource"), or nil.
func (u *Docs) TableColumns(key string) []metav1.TableColumnDefinition {
	u.tablesOnce.Do(func() { u.tables, u.tablesErr = upstream.LoadTableColumns() })
	return u.tables[key]
}

// customResourceOpenAPI returns the recorded paths (by scope, with
// placeholders for the names) and shared schemas of a custom resource's
// OpenAPI v3 document.
func (u *Docs) customResourceOpenAPI() (*upstream.CustomResourceOpenAPI, error) {
	u.crdOnce.Do(func() { u.crd, u.crdErr = upstream.LoadCustomResourceOpenAPI() })
	return u.crd, u.crdErr
}

// openAPIV3 returns the recorded OpenAPI v3 documents by path.
func (u *Docs) openAPIV3() (map[string]json.RawMessage, error) {
	u.v3Once.Do(func() { u.v3, u.v3Err = upstream.LoadOpenAPIV3() })
	return u.v3, u.v3Err
}
