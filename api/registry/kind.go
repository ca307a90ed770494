package registry

// Kind is one kind served by a REST resource.
type Kind struct {
	Group            string // "" for the core group
	Version          string
	Kind             string
	ListKind         string // "" when the resource cannot be listed
	Resource         string // plural resource name, as used in URLs
	SingularResource string
	Namespaced       bool
	Verbs            []string
	ShortNames       []string
	Categories       []string
	// Subresources lists the subresources the kind serves ("status",
	// "scale", ...). Generated kinds always set it, empty when there are
	// none; nil means unknown (a hand-written Kind may leave it out), and
	// clients then let the server decide whether a status is served.
	Subresources []string
	// Protobuf reports whether the server can encode objects of this kind
	// as protobuf: true for the built-in kinds, false for custom
	// resources, which the server serves as JSON or, with kube-apiserver's
	// CBORServingAndStorage gate, as CBOR. Typed clients ask for protobuf
	// only when it is set; otherwise their reads offer CBOR, then JSON.
	Protobuf bool
}

// APIVersion is the apiVersion objects of this kind carry: "v1" for the
// core group, "group/version" otherwise.
func (k Kind) APIVersion() string {
	if k.Group == "" {
		return k.Version
	}
	return k.Group + "/" + k.Version
}

// PathPrefix is the URL path under which the group version is served:
// "/api/v1" for the core group, "/apis/group/version" otherwise.
func (k Kind) PathPrefix() string {
	if k.Group == "" {
		return "/api/" + k.Version
	}
	return "/apis/" + k.Group + "/" + k.Version
}

// HasVerb reports whether the resource supports verb (get, list, watch...).
func (k Kind) HasVerb(verb string) bool {
	for _, v := range k.Verbs {
		if v == verb {
			return true
		}
	}
	return false
}
