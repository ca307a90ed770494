// +groupName=shop.example.com
package v1

import metav1 "github.com/kubewire/kubewire/api/meta/v1"

// Order is a kind.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=ord,categories=shop
// +kubebuilder:printcolumn:name=Total,type=number,JSONPath=.spec.total,priority=2
type Order struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            struct{} `json:"status"`
}

// Basket is a kind with a list type of its own.
//
// +kubebuilder:object:root=true
type Basket struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// BasketList is written by hand.
type BasketList struct {
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Basket `json:"items"`
}
