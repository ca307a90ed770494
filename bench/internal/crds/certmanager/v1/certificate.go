package v1

import (
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// Certificate asks for an X.509 certificate kept in a Secret.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Certificate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec CertificateSpec `json:"spec"`
	// +optional
	Status CertificateStatus `json:"status,omitempty"`
}

// CertificateSpec is the certificate wanted.
type CertificateSpec struct {
	// +optional
	Subject *X509Subject `json:"subject,omitempty"`
	// +optional
	CommonName string `json:"commonName,omitempty"`
	// +optional
	Duration *metav1.Duration `json:"duration,omitempty"`
	// +optional
	RenewBefore *metav1.Duration `json:"renewBefore,omitempty"`
	// +optional
	DNSNames []string `json:"dnsNames,omitempty"`
	// +optional
	IPAddresses []string `json:"ipAddresses,omitempty"`
	// +optional
	URIs []string `json:"uris,omitempty"`
	// +optional
	EmailAddresses []string `json:"emailAddresses,omitempty"`
	SecretName     string   `json:"secretName"`
	// +optional
	SecretTemplate *CertificateSecretTemplate `json:"secretTemplate,omitempty"`
	IssuerRef      ObjectReference            `json:"issuerRef"`
	// +optional
	IsCA bool `json:"isCA,omitempty"`
	// +optional
	Usages []KeyUsage `json:"usages,omitempty"`
	// +optional
	PrivateKey *CertificatePrivateKey `json:"privateKey,omitempty"`
	// +optional
	EncodeUsagesInRequest *bool `json:"encodeUsagesInRequest,omitempty"`
	// +optional
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// +optional
	AdditionalOutputFormats []CertificateAdditionalOutputFormat `json:"additionalOutputFormats,omitempty"`
}

// X509Subject is the certificate's subject.
type X509Subject struct {
	// +optional
	Organizations []string `json:"organizations,omitempty"`
	// +optional
	Countries []string `json:"countries,omitempty"`
	// +optional
	OrganizationalUnits []string `json:"organizationalUnits,omitempty"`
	// +optional
	Localities []string `json:"localities,omitempty"`
	// +optional
	Provinces []string `json:"provinces,omitempty"`
	// +optional
	SerialNumber string `json:"serialNumber,omitempty"`
}

// CertificateSecretTemplate is what the Secret gets besides the keys.
type CertificateSecretTemplate struct {
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
}

// ObjectReference names the issuer.
type ObjectReference struct {
	Name string `json:"name"`
	// +optional
	Kind string `json:"kind,omitempty"`
	// +optional
	Group string `json:"group,omitempty"`
}

// KeyUsage is an X.509 key usage.
type KeyUsage string

// CertificatePrivateKey says how the key is made and rotated.
type CertificatePrivateKey struct {
	// +optional
	RotationPolicy string `json:"rotationPolicy,omitempty"`
	// +optional
	Encoding string `json:"encoding,omitempty"`
	// +optional
	Algorithm string `json:"algorithm,omitempty"`
	// +optional
	Size int `json:"size,omitempty"`
}

// CertificateAdditionalOutputFormat is another format of the key pair
// written to the Secret.
type CertificateAdditionalOutputFormat struct {
	Type string `json:"type"`
}

// CertificateStatus is the observed state.
type CertificateStatus struct {
	// +optional
	Conditions []CertificateCondition `json:"conditions,omitempty"`
	// +optional
	LastFailureTime *metav1.Time `json:"lastFailureTime,omitempty"`
	// +optional
	NotBefore *metav1.Time `json:"notBefore,omitempty"`
	// +optional
	NotAfter *metav1.Time `json:"notAfter,omitempty"`
	// +optional
	RenewalTime *metav1.Time `json:"renewalTime,omitempty"`
	// +optional
	Revision *int `json:"revision,omitempty"`
	// +optional
	NextPrivateKeySecretName *string `json:"nextPrivateKeySecretName,omitempty"`
	// +optional
	FailedIssuanceAttempts *int `json:"failedIssuanceAttempts,omitempty"`
}

// CertificateCondition is a condition of a Certificate (cert-manager has
// its own type, not metav1.Condition).
type CertificateCondition struct {
	Type   string `json:"type"`
	Status string `json:"status"`
	// +optional
	LastTransitionTime *metav1.Time `json:"lastTransitionTime,omitempty"`
	// +optional
	Reason string `json:"reason,omitempty"`
	// +optional
	Message string `json:"message,omitempty"`
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}
