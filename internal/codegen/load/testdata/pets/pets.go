// Package pets is a test package for package load.
//
// +groupName=pets.example.com
package pets

import "time"

// Cat is a pet.
//
// +kubebuilder:object:root=true
type Cat struct {
	// Name is what it answers to (when it does).
	// +kubebuilder:validation:MaxLength=20
	Name string        `json:"name"`
	Nap  time.Duration `json:"nap"`
	Toy  struct {
		// +optional
		Color string `json:"color,omitempty"`
	} `json:"toy"`
}

// +kubebuilder:validation:Minimum=1

// Lives is how many are left; its marker sits above its doc comment.
type Lives int
