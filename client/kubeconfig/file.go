package kubeconfig

import "encoding/json"

// File is one kubeconfig document (apiVersion v1, kind Config), with the
// fields this package reads. Other fields (preferences, extensions
// other than a cluster's ExecExtension) are ignored.
type File struct {
	APIVersion     string         `json:"apiVersion,omitempty"`
	Kind           string         `json:"kind,omitempty"`
	CurrentContext string         `json:"current-context,omitempty"`
	Clusters       []NamedCluster `json:"clusters,omitempty"`
	Users          []NamedUser    `json:"users,omitempty"`
	Contexts       []NamedContext `json:"contexts,omitempty"`
}

// NamedCluster is an entry of clusters.
type NamedCluster struct {
	Name    string  `json:"name"`
	Cluster Cluster `json:"cluster"`
}

// Cluster says how to reach an API server.
type Cluster struct {
	Server                   string `json:"server,omitempty"`
	TLSServerName            string `json:"tls-server-name,omitempty"`
	InsecureSkipTLSVerify    bool   `json:"insecure-skip-tls-verify,omitempty"`
	CertificateAuthority     string `json:"certificate-authority,omitempty"`
	CertificateAuthorityData []byte `json:"certificate-authority-data,omitempty"`
	ProxyURL                 string `json:"proxy-url,omitempty"`
	DisableCompression       bool   `json:"disable-compression,omitempty"`
	// Extensions are read for one: ExecExtension, handed to an exec
	// plugin that asks for the cluster's information.
	Extensions []NamedExtension `json:"extensions,omitempty"`
}

// ExecExtension names the cluster extension kubectl passes to exec
// credential plugins with provideClusterInfo, as spec.cluster.config.
const ExecExtension = "client.authentication.k8s.io/exec"

// NamedExtension is an entry of a cluster's extensions: any object.
type NamedExtension struct {
	Name      string          `json:"name"`
	Extension json.RawMessage `json:"extension"`
}

// NamedUser is an entry of users.
type NamedUser struct {
	Name string `json:"name"`
	User User   `json:"user"`
}

// User holds credentials.
type User struct {
	ClientCertificate     string        `json:"client-certificate,omitempty"`
	ClientCertificateData []byte        `json:"client-certificate-data,omitempty"`
	ClientKey             string        `json:"client-key,omitempty"`
	ClientKeyData         []byte        `json:"client-key-data,omitempty"`
	Token                 string        `json:"token,omitempty"`
	TokenFile             string        `json:"tokenFile,omitempty"`
	Username              string        `json:"username,omitempty"`
	Password              string        `json:"password,omitempty"`
	Exec                  *Exec         `json:"exec,omitempty"`
	AuthProvider          *AuthProvider `json:"auth-provider,omitempty"`
}

// Exec configures a credential plugin.
type Exec struct {
	Command            string    `json:"command"`
	Args               []string  `json:"args,omitempty"`
	Env                []ExecEnv `json:"env,omitempty"`
	APIVersion         string    `json:"apiVersion,omitempty"`
	InstallHint        string    `json:"installHint,omitempty"`
	ProvideClusterInfo bool      `json:"provideClusterInfo,omitempty"`
	InteractiveMode    string    `json:"interactiveMode,omitempty"`
}

// ExecEnv is one environment variable of a credential plugin.
type ExecEnv struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// AuthProvider is the legacy in-tree auth provider stanza (gcp, azure,
// oidc), which this package does not support.
type AuthProvider struct {
	Name string `json:"name"`
}

// NamedContext is an entry of contexts.
type NamedContext struct {
	Name    string  `json:"name"`
	Context Context `json:"context"`
}

// Context binds a cluster, a user and a default namespace.
type Context struct {
	Cluster   string `json:"cluster"`
	User      string `json:"user"`
	Namespace string `json:"namespace,omitempty"`
}
