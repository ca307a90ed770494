// Package hooks holds webhook code and its markers, no API types:
// kubewire-gen reads its markers and writes nothing into it.
package hooks

// +kubebuilder:webhook:path=/validate-test-kubewire-dev-v1-gadget,mutating=false,failurePolicy=fail,sideEffects=None,groups=test.kubewire.dev,resources=gadgets,verbs=create;update,versions=v1,name=vgadget-v1.kubewire.dev,admissionReviewVersions=v1

// GadgetValidator would validate Gadgets.
type GadgetValidator struct{ Strict bool }

// GadgetDefaulter would default Gadgets.
//
// +kubebuilder:webhook:path=/mutate-test-kubewire-dev-v1-gadget,mutating=true,failurePolicy=fail,sideEffects=None,groups=test.kubewire.dev,resources=gadgets,verbs=create;update,versions=v1,name=mgadget-v1.kubewire.dev,admissionReviewVersions=v1
type GadgetDefaulter struct{ Color string }
