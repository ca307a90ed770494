// Package upstream is package v1's Certificate over k8s.io/apimachinery's
// types, for controller-runtime: certificate.go is copied from v1 by
// cmd/mirror, the deep copies are controller-gen's.
//
// +kubebuilder:object:generate=true
// +groupName=cert-manager.io
package upstream

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the Certificate's group and version.
var GroupVersion = schema.GroupVersion{Group: "cert-manager.io", Version: "v1"}

// CertificateList is a list of Certificates.
//
// +kubebuilder:object:root=true
type CertificateList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Certificate `json:"items"`
}

// AddToScheme registers Certificate and CertificateList.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Certificate{}, &CertificateList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
