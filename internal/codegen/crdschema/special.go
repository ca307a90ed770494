package crdschema

import (
	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
)

// quantityPattern is the regular expression of a resource.Quantity, as
// kube-apiserver's own types publish it.
const quantityPattern = `^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$`

// Import paths of the types with a schema of their own.
const (
	kubewire    = "github.com/kubewire/kubewire/api/"
	metaV1      = kubewire + "meta/v1"
	quantityPkg = kubewire + "quantity"
	intstrPkg   = kubewire + "intstr"
	runtimePkg  = kubewire + "runtime"
	apiextPkg   = kubewire + "apiextensions/v1"
)

// special returns the schema of a type whose JSON form is not what its
// Go fields say (it has its own JSON methods), by package path and name;
// ok is false for other types. The same types of k8s.io/apimachinery
// are recognised, for packages that use them.
func special(pkg, name string) (s *apiextv1.JSONSchemaProps, ok bool) {
	switch pkg {
	case metaV1, "k8s.io/apimachinery/pkg/apis/meta/v1":
		switch name {
		case "Time", "MicroTime":
			return &apiextv1.JSONSchemaProps{Type: "string", Format: "date-time"}, true
		case "Duration":
			return &apiextv1.JSONSchemaProps{Type: "string"}, true
		case "FieldsV1":
			return &apiextv1.JSONSchemaProps{Type: "object", XPreserveUnknownFields: ptr(true)}, true
		}
	case "time":
		if name == "Time" {
			return &apiextv1.JSONSchemaProps{Type: "string", Format: "date-time"}, true
		}
		if name == "Duration" {
			return &apiextv1.JSONSchemaProps{Type: "integer", Format: "int64"}, true
		}
	case quantityPkg, "k8s.io/apimachinery/pkg/api/resource":
		if name == "Quantity" {
			s := intOrString()
			s.Pattern = quantityPattern
			return s, true
		}
	case intstrPkg, "k8s.io/apimachinery/pkg/util/intstr":
		if name == "IntOrString" {
			return intOrString(), true
		}
	case runtimePkg, "k8s.io/apimachinery/pkg/runtime":
		if name == "RawExtension" {
			return &apiextv1.JSONSchemaProps{Type: "object", XPreserveUnknownFields: ptr(true)}, true
		}
	case apiextPkg, "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1":
		if name == "JSON" {
			return &apiextv1.JSONSchemaProps{XPreserveUnknownFields: ptr(true)}, true
		}
	}
	return nil, false
}

// intOrString is the node of a value that is an integer or a string.
func intOrString() *apiextv1.JSONSchemaProps {
	return &apiextv1.JSONSchemaProps{
		XIntOrString: true,
		AnyOf:        []apiextv1.JSONSchemaProps{{Type: "integer"}, {Type: "string"}},
	}
}

// objectMetaSubset is metav1.ObjectMeta inside an object that is not an
// embedded resource (a Pod template's metadata): the fields such
// templates use, so that pruning keeps them.
func objectMetaSubset() *apiextv1.JSONSchemaProps {
	strMap := &apiextv1.JSONSchemaProps{Type: "object", AdditionalProperties: &apiextv1.JSONSchemaPropsOrBool{Allows: true, Schema: &apiextv1.JSONSchemaProps{Type: "string"}}}
	return &apiextv1.JSONSchemaProps{
		Type: "object",
		Properties: map[string]apiextv1.JSONSchemaProps{
			"name":         {Type: "string"},
			"generateName": {Type: "string"},
			"namespace":    {Type: "string"},
			"labels":       *strMap,
			"annotations":  *strMap,
			"finalizers":   {Type: "array", Items: &apiextv1.JSONSchemaPropsOrArray{Schema: &apiextv1.JSONSchemaProps{Type: "string"}}},
		},
	}
}

func ptr[T any](v T) *T { return &v }
