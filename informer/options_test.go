package informer_test

import (
	"errors"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

type cmOpts = informer.Options[*corev1.ConfigMap]

// The constructors refuse what the informers could not run with: an
// error matching client.ErrInvalidOptions, and no Run that fails later.
func TestInvalidOptions(t *testing.T) {
	_, c := newServer(t, 0, fake.Options{})
	cms := client.For[*corev1.ConfigMap](c)
	byName := func(cm *corev1.ConfigMap) []string { return []string{cm.Name} }
	badLabels := client.LabelSelector{}.Equals("bad key!", "x")
	tests := []struct {
		name string
		make func() (any, error)
	}{
		{"New: nil source", func() (any, error) { return informer.New[*corev1.ConfigMap](nil, cmOpts{}) }},
		{"New: an index named namespace", func() (any, error) {
			return informer.New(cms, cmOpts{Indexes: map[string]informer.IndexFunc[*corev1.ConfigMap]{informer.NamespaceIndex: byName}})
		}},
		{"New: an index without a function", func() (any, error) {
			return informer.New(cms, cmOpts{Indexes: map[string]informer.IndexFunc[*corev1.ConfigMap]{"name": nil}})
		}},
		{"New: a label selector with an error", func() (any, error) {
			return informer.New(cms, cmOpts{Reflector: reflector.Options{LabelSelector: badLabels}})
		}},
		{"New: a negative page size", func() (any, error) {
			return informer.New(cms, cmOpts{Reflector: reflector.Options{PageSize: -1}})
		}},
		{"NewMetadata: nil client", func() (any, error) {
			return informer.NewMetadata(nil, client.GroupVersionResource{Version: "v1", Resource: "configmaps"}, "", informer.Options[*metav1.PartialObjectMetadata]{})
		}},
		{"NewMetadata: a negative duration", func() (any, error) {
			return informer.NewMetadata(c, client.GroupVersionResource{Version: "v1", Resource: "configmaps"}, "",
				informer.Options[*metav1.PartialObjectMetadata]{Reflector: reflector.Options{MaxBackoff: -time.Second}})
		}},
		{"NewFactory: nil client", func() (any, error) { return informer.NewFactory(nil, informer.FactoryOptions{}) }},
		{"NewFactory: a negative duration", func() (any, error) {
			return informer.NewFactory(c, informer.FactoryOptions{Reflector: reflector.Options{WatchTimeout: -time.Minute}})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := tt.make()
			if !errors.Is(err, client.ErrInvalidOptions) {
				t.Errorf("error %v, want one matching client.ErrInvalidOptions", err)
			}
			switch v := v.(type) {
			case *informer.Informer[*corev1.ConfigMap]:
				if v != nil {
					t.Error("an informer beside the error")
				}
			case *informer.Informer[*metav1.PartialObjectMetadata]:
				if v != nil {
					t.Error("an informer beside the error")
				}
			case *informer.Factory:
				if v != nil {
					t.Error("a factory beside the error")
				}
			}
		})
	}
}

// A Scope that cannot work is a programming error: Validate reports it,
// and Shared panics on it (documented), when it is called.
func TestInvalidScope(t *testing.T) {
	_, c := newServer(t, 0, fake.Options{})
	f := newFactory(t, c, informer.FactoryOptions{})
	for _, tt := range []struct {
		name  string
		scope informer.Scope
	}{
		{"label selector with an error", informer.Scope{LabelSelector: client.LabelSelector{}.In("app")}},
		{"unknown shard key", informer.Scope{Shard: "object.metadata.name"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.scope.Validate(); !errors.Is(err, client.ErrInvalidOptions) {
				t.Errorf("Validate: %v, want an error matching client.ErrInvalidOptions", err)
			}
			defer func() {
				if recover() == nil {
					t.Error("Shared did not panic")
				}
			}()
			informer.Shared[*corev1.ConfigMap](f, tt.scope)
		})
	}
	if err := (informer.Scope{Namespace: "default", Shard: client.ShardByUID}).Validate(); err != nil {
		t.Errorf("a valid Scope: %v", err)
	}
}
