// Package markers parses the marker comments of Go API types: lines such
// as
//
//	// +groupName=example.com
//	// +kubebuilder:resource:scope=Cluster,shortName=wd;wds
//	// +kubebuilder:validation:Minimum=1
//	// +optional
//
// that kubewire-gen (and controller-gen, whose spellings these are) read
// to learn what Go cannot say: the API group, resource names, schema
// validation. Every "+kubebuilder:" marker may also be written
// "+kubewire:"; Parse reports it under its "kubebuilder:" name.
//
// Markers come in three forms, told apart by the table of known names
// (Known):
//
//   - a flag: "+kubebuilder:subresource:status", "+optional";
//   - one value: "+kubebuilder:validation:Maximum=10",
//     "+groupName=example.com"; the value is the rest of the line;
//   - named arguments: "+kubebuilder:printcolumn:name=Age,type=date,
//     JSONPath=.metadata.creationTimestamp"; an argument's value is a
//     Go string ("..." or `...`), a list in braces ({a,b}), or text up
//     to the next comma.
//
// A list value is written {a,b,c} or a;b;c. Parse is a pure function;
// the package holds no state.
package markers
