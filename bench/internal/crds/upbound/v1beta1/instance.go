package v1beta1

import (
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// Instance is a managed RDS database instance. Its numbers are float64,
// as upjet writes them (and marks them so).
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster
type Instance struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec InstanceSpec `json:"spec"`
	// +optional
	Status InstanceStatus `json:"status,omitempty"`
}

// InstanceSpec is the instance wanted, with Crossplane's common fields.
type InstanceSpec struct {
	ResourceSpec `json:",inline"`
	ForProvider  InstanceParameters `json:"forProvider"`
	// +optional
	InitProvider InstanceInitParameters `json:"initProvider,omitempty"`
}

// InstanceStatus is the instance observed, with Crossplane's conditions.
type InstanceStatus struct {
	ResourceStatus `json:",inline"`
	// +optional
	AtProvider InstanceObservation `json:"atProvider,omitempty"`
}

// ResourceSpec are the fields every managed resource's spec has.
type ResourceSpec struct {
	// +optional
	WriteConnectionSecretToReference *SecretReference `json:"writeConnectionSecretToRef,omitempty"`
	// +optional
	ProviderConfigReference *Reference `json:"providerConfigRef,omitempty"`
	// +optional
	ManagementPolicies []string `json:"managementPolicies,omitempty"`
	// +optional
	DeletionPolicy string `json:"deletionPolicy,omitempty"`
}

// ResourceStatus are the fields every managed resource's status has.
type ResourceStatus struct {
	// +optional
	Conditions []Condition `json:"conditions,omitempty"`
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// Condition is Crossplane's condition.
type Condition struct {
	Type               string      `json:"type"`
	Status             string      `json:"status"`
	LastTransitionTime metav1.Time `json:"lastTransitionTime"`
	// +optional
	Reason string `json:"reason"`
	// +optional
	Message string `json:"message,omitempty"`
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// SecretReference names a Secret.
type SecretReference struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

// SecretKeySelector names a key of a Secret.
type SecretKeySelector struct {
	SecretReference `json:",inline"`
	Key             string `json:"key"`
}

// Reference names another object.
type Reference struct {
	Name string `json:"name"`
	// +optional
	Policy *Policy `json:"policy,omitempty"`
}

// Policy says how a reference is resolved.
type Policy struct {
	// +optional
	Resolve *string `json:"resolve,omitempty"`
	// +optional
	Resolution *string `json:"resolution,omitempty"`
}

// Selector picks an object by labels.
type Selector struct {
	// +optional
	MatchLabels map[string]string `json:"matchLabels,omitempty"`
	// +optional
	MatchControllerRef *bool `json:"matchControllerRef,omitempty"`
	// +optional
	Policy *Policy `json:"policy,omitempty"`
}

// InstanceParameters are the instance's settings.
type InstanceParameters struct {
	// +optional
	// +kubebuilder:validation:Type=number
	AllocatedStorage *float64 `json:"allocatedStorage,omitempty"`
	// +optional
	AllowMajorVersionUpgrade *bool `json:"allowMajorVersionUpgrade,omitempty"`
	// +optional
	ApplyImmediately *bool `json:"applyImmediately,omitempty"`
	// +optional
	AutoGeneratePassword *bool `json:"autoGeneratePassword,omitempty"`
	// +optional
	AutoMinorVersionUpgrade *bool `json:"autoMinorVersionUpgrade,omitempty"`
	// +optional
	AvailabilityZone *string `json:"availabilityZone,omitempty"`
	// +optional
	// +kubebuilder:validation:Type=number
	BackupRetentionPeriod *float64 `json:"backupRetentionPeriod,omitempty"`
	// +optional
	BackupWindow *string `json:"backupWindow,omitempty"`
	// +optional
	CACertIdentifier *string `json:"caCertIdentifier,omitempty"`
	// +optional
	CopyTagsToSnapshot *bool `json:"copyTagsToSnapshot,omitempty"`
	// +optional
	DBName *string `json:"dbName,omitempty"`
	// +optional
	DBSubnetGroupName *string `json:"dbSubnetGroupName,omitempty"`
	// +optional
	DBSubnetGroupNameRef *Reference `json:"dbSubnetGroupNameRef,omitempty"`
	// +optional
	DeleteAutomatedBackups *bool `json:"deleteAutomatedBackups,omitempty"`
	// +optional
	DeletionProtection *bool `json:"deletionProtection,omitempty"`
	// +optional
	EnabledCloudwatchLogsExports []*string `json:"enabledCloudwatchLogsExports,omitempty"`
	// +optional
	Engine *string `json:"engine,omitempty"`
	// +optional
	EngineVersion *string `json:"engineVersion,omitempty"`
	// +optional
	FinalSnapshotIdentifier *string `json:"finalSnapshotIdentifier,omitempty"`
	// +optional
	IAMDatabaseAuthenticationEnabled *bool `json:"iamDatabaseAuthenticationEnabled,omitempty"`
	// +optional
	InstanceClass *string `json:"instanceClass,omitempty"`
	// +optional
	// +kubebuilder:validation:Type=number
	Iops *float64 `json:"iops,omitempty"`
	// +optional
	KMSKeyID *string `json:"kmsKeyId,omitempty"`
	// +optional
	MaintenanceWindow *string `json:"maintenanceWindow,omitempty"`
	// +optional
	ManageMasterUserPassword *bool `json:"manageMasterUserPassword,omitempty"`
	// +optional
	// +kubebuilder:validation:Type=number
	MaxAllocatedStorage *float64 `json:"maxAllocatedStorage,omitempty"`
	// +optional
	// +kubebuilder:validation:Type=number
	MonitoringInterval *float64 `json:"monitoringInterval,omitempty"`
	// +optional
	MultiAz *bool `json:"multiAz,omitempty"`
	// +optional
	NetworkType *string `json:"networkType,omitempty"`
	// +optional
	ParameterGroupName *string `json:"parameterGroupName,omitempty"`
	// +optional
	PasswordSecretRef *SecretKeySelector `json:"passwordSecretRef,omitempty"`
	// +optional
	PerformanceInsightsEnabled *bool `json:"performanceInsightsEnabled,omitempty"`
	// +optional
	// +kubebuilder:validation:Type=number
	PerformanceInsightsRetentionPeriod *float64 `json:"performanceInsightsRetentionPeriod,omitempty"`
	// +optional
	// +kubebuilder:validation:Type=number
	Port *float64 `json:"port,omitempty"`
	// +optional
	PubliclyAccessible *bool `json:"publiclyAccessible,omitempty"`
	// +optional
	Region *string `json:"region"`
	// +optional
	SkipFinalSnapshot *bool `json:"skipFinalSnapshot,omitempty"`
	// +optional
	StorageEncrypted *bool `json:"storageEncrypted,omitempty"`
	// +optional
	// +kubebuilder:validation:Type=number
	StorageThroughput *float64 `json:"storageThroughput,omitempty"`
	// +optional
	StorageType *string `json:"storageType,omitempty"`
	// +optional
	Tags map[string]*string `json:"tags,omitempty"`
	// +optional
	Username *string `json:"username,omitempty"`
	// +optional
	VPCSecurityGroupIDRefs []Reference `json:"vpcSecurityGroupIdRefs,omitempty"`
	// +optional
	VPCSecurityGroupIDSelector *Selector `json:"vpcSecurityGroupIdSelector,omitempty"`
	// +optional
	VPCSecurityGroupIds []*string `json:"vpcSecurityGroupIds,omitempty"`
}

// InstanceInitParameters are settings applied at creation only.
type InstanceInitParameters struct {
	// +optional
	// +kubebuilder:validation:Type=number
	AllocatedStorage *float64 `json:"allocatedStorage,omitempty"`
	// +optional
	Engine *string `json:"engine,omitempty"`
	// +optional
	EngineVersion *string `json:"engineVersion,omitempty"`
	// +optional
	InstanceClass *string `json:"instanceClass,omitempty"`
	// +optional
	Tags map[string]*string `json:"tags,omitempty"`
}

// InstanceObservation is the instance as the cloud reports it.
type InstanceObservation struct {
	// +optional
	Address *string `json:"address,omitempty"`
	// +optional
	// +kubebuilder:validation:Type=number
	AllocatedStorage *float64 `json:"allocatedStorage,omitempty"`
	// +optional
	Arn *string `json:"arn,omitempty"`
	// +optional
	AutoMinorVersionUpgrade *bool `json:"autoMinorVersionUpgrade,omitempty"`
	// +optional
	AvailabilityZone *string `json:"availabilityZone,omitempty"`
	// +optional
	// +kubebuilder:validation:Type=number
	BackupRetentionPeriod *float64 `json:"backupRetentionPeriod,omitempty"`
	// +optional
	BackupWindow *string `json:"backupWindow,omitempty"`
	// +optional
	CACertIdentifier *string `json:"caCertIdentifier,omitempty"`
	// +optional
	CopyTagsToSnapshot *bool `json:"copyTagsToSnapshot,omitempty"`
	// +optional
	DBName *string `json:"dbName,omitempty"`
	// +optional
	DBSubnetGroupName *string `json:"dbSubnetGroupName,omitempty"`
	// +optional
	DeletionProtection *bool `json:"deletionProtection,omitempty"`
	// +optional
	EnabledCloudwatchLogsExports []*string `json:"enabledCloudwatchLogsExports,omitempty"`
	// +optional
	Endpoint *string `json:"endpoint,omitempty"`
	// +optional
	Engine *string `json:"engine,omitempty"`
	// +optional
	EngineVersion *string `json:"engineVersion,omitempty"`
	// +optional
	EngineVersionActual *string `json:"engineVersionActual,omitempty"`
	// +optional
	HostedZoneID *string `json:"hostedZoneId,omitempty"`
	// +optional
	IAMDatabaseAuthenticationEnabled *bool `json:"iamDatabaseAuthenticationEnabled,omitempty"`
	// +optional
	ID *string `json:"id,omitempty"`
	// +optional
	InstanceClass *string `json:"instanceClass,omitempty"`
	// +optional
	// +kubebuilder:validation:Type=number
	Iops *float64 `json:"iops,omitempty"`
	// +optional
	KMSKeyID *string `json:"kmsKeyId,omitempty"`
	// +optional
	LatestRestorableTime *string `json:"latestRestorableTime,omitempty"`
	// +optional
	ListenerEndpoint []ListenerEndpointObservation `json:"listenerEndpoint,omitempty"`
	// +optional
	MaintenanceWindow *string `json:"maintenanceWindow,omitempty"`
	// +optional
	MasterUserSecret []MasterUserSecretObservation `json:"masterUserSecret,omitempty"`
	// +optional
	// +kubebuilder:validation:Type=number
	MaxAllocatedStorage *float64 `json:"maxAllocatedStorage,omitempty"`
	// +optional
	// +kubebuilder:validation:Type=number
	MonitoringInterval *float64 `json:"monitoringInterval,omitempty"`
	// +optional
	MultiAz *bool `json:"multiAz,omitempty"`
	// +optional
	NetworkType *string `json:"networkType,omitempty"`
	// +optional
	ParameterGroupName *string `json:"parameterGroupName,omitempty"`
	// +optional
	PerformanceInsightsEnabled *bool `json:"performanceInsightsEnabled,omitempty"`
	// +optional
	PerformanceInsightsKMSKeyID *string `json:"performanceInsightsKmsKeyId,omitempty"`
	// +optional
	// +kubebuilder:validation:Type=number
	PerformanceInsightsRetentionPeriod *float64 `json:"performanceInsightsRetentionPeriod,omitempty"`
	// +optional
	// +kubebuilder:validation:Type=number
	Port *float64 `json:"port,omitempty"`
	// +optional
	PubliclyAccessible *bool `json:"publiclyAccessible,omitempty"`
	// +optional
	Replicas []*string `json:"replicas,omitempty"`
	// +optional
	ResourceID *string `json:"resourceId,omitempty"`
	// +optional
	SkipFinalSnapshot *bool `json:"skipFinalSnapshot,omitempty"`
	// +optional
	Status *string `json:"status,omitempty"`
	// +optional
	StorageEncrypted *bool `json:"storageEncrypted,omitempty"`
	// +optional
	// +kubebuilder:validation:Type=number
	StorageThroughput *float64 `json:"storageThroughput,omitempty"`
	// +optional
	StorageType *string `json:"storageType,omitempty"`
	// +optional
	Tags map[string]*string `json:"tags,omitempty"`
	// +optional
	TagsAll map[string]*string `json:"tagsAll,omitempty"`
	// +optional
	Username *string `json:"username,omitempty"`
	// +optional
	VPCSecurityGroupIds []*string `json:"vpcSecurityGroupIds,omitempty"`
}

// ListenerEndpointObservation is an endpoint of the instance.
type ListenerEndpointObservation struct {
	// +optional
	Address *string `json:"address,omitempty"`
	// +optional
	HostedZoneID *string `json:"hostedZoneId,omitempty"`
	// +optional
	// +kubebuilder:validation:Type=number
	Port *float64 `json:"port,omitempty"`
}

// MasterUserSecretObservation is the secret holding the master password.
type MasterUserSecretObservation struct {
	// +optional
	KMSKeyID *string `json:"kmsKeyId,omitempty"`
	// +optional
	SecretArn *string `json:"secretArn,omitempty"`
	// +optional
	SecretStatus *string `json:"secretStatus,omitempty"`
}
