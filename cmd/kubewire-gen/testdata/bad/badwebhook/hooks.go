package badwebhook

// +kubebuilder:webhook:path=/x,mutating=true,failurePolicy=fail,sideEffects=Some,groups=g,resources=r,verbs=create,versions=v1,name=x.example.com,admissionReviewVersions=v1
type Hook struct{}
