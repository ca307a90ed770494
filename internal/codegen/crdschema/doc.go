// Package crdschema derives the structural OpenAPI v3 schema of a
// CustomResourceDefinition version from Go types and their markers: the
// schema kube-apiserver validates, prunes and defaults custom resources
// with.
//
// Go shapes map to schema nodes as follows:
//
//	string, named strings            type: string
//	bool                             type: boolean
//	int, uint and sized variants     type: integer (int32, int64: with format)
//	float32, float64                 type: number, only with +kubebuilder:validation:Type=number
//	                                 (floats do not round-trip through every client)
//	[]byte                           type: string, format: byte
//	slices, arrays                   type: array, items
//	maps with string keys            type: object, additionalProperties
//	structs                          type: object, properties; embedded structs and
//	                                 json:",inline" fields merge into their parent
//	pointers                         the element's schema
//	any                              x-kubernetes-preserve-unknown-fields: true
//	metav1.Time, MicroTime, time.Time type: string, format: date-time
//	metav1.Duration                  type: string
//	resource.Quantity                int-or-string with the quantity pattern
//	intstr.IntOrString               int-or-string
//	runtime.RawExtension             type: object, x-kubernetes-preserve-unknown-fields
//	apiextensions/v1.JSON            x-kubernetes-preserve-unknown-fields
//	metav1.ObjectMeta                type: object at the root and in embedded
//	                                 resources (the server handles metadata);
//	                                 elsewhere (a Pod template) name, generateName,
//	                                 namespace, labels, annotations and finalizers,
//	                                 so that pruning keeps them
//
// Field names are the JSON names of the json tags; fields tagged "-" and
// unexported fields are left out. A field is required unless its tag has
// omitempty or omitzero, or it is marked +optional (or
// +kubebuilder:validation:Optional); +required makes any field required;
// the package marker +kubebuilder:validation:Optional makes every field
// optional by default.
//
// Markers on a named type apply wherever the type is used; markers on a
// field apply to that field on top. Types from other packages (such as
// kubewire's api/core/v1) are described the same way from their Go
// types and json tags; their markers are read when their source has any.
// A type that contains itself cannot be described by a structural
// schema and is an error unless the recursive field is marked
// +kubebuilder:validation:Schemaless with
// +kubebuilder:pruning:PreserveUnknownFields.
//
// A structural schema cannot refer to one definition: a type is
// described again at each of its uses, so a type used by two fields at
// every one of N levels takes 2^N copies. A Generator stops past
// MaxNodes nodes (DefaultMaxNodes, about what kube-apiserver can store)
// with an error naming the type described most often, before the copies
// take the machine's memory.
//
// A Generator is not safe for concurrent use.
package crdschema
