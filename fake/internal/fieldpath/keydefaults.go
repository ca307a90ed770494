package fieldpath

// keyDefaults are the schema defaults of key fields of associative
// lists' items (k8s.io/api's +default markers, in kube-apiserver's
// OpenAPI): an applied port without a protocol is the TCP port, as
// kube-apiserver's field manager keys it.
func keyDefaults(definition string) map[string]any {
	switch definition {
	case "io.k8s.api.core.v1.ContainerPort", "io.k8s.api.core.v1.ServicePort":
		return map[string]any{"protocol": "TCP"}
	}
	return nil
}
