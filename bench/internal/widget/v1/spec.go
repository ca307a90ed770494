package v1

// WidgetSpec is the desired state: a few scalars for every shape, a nested
// template and ports for the typical shape, and a list of steps (as in an
// Argo Workflow or a Crossplane composite) for the large one.
type WidgetSpec struct {
	Replicas *int32            `json:"replicas,omitempty"`
	Color    string            `json:"color,omitempty"`
	Size     string            `json:"size,omitempty"`
	Image    string            `json:"image,omitempty"`
	Paused   bool              `json:"paused,omitempty"`
	Selector map[string]string `json:"selector,omitempty"`
	Ports    []WidgetPort      `json:"ports,omitempty"`
	Template *WidgetTemplate   `json:"template,omitempty"`
	Steps    []WidgetStep      `json:"steps,omitempty"`
}

type WidgetPort struct {
	Name     string `json:"name,omitempty"`
	Port     int32  `json:"port"`
	Protocol string `json:"protocol,omitempty"`
}

type WidgetTemplate struct {
	Labels         map[string]string `json:"labels,omitempty"`
	Annotations    map[string]string `json:"annotations,omitempty"`
	ServiceAccount string            `json:"serviceAccount,omitempty"`
	Args           []string          `json:"args,omitempty"`
	Env            []Param           `json:"env,omitempty"`
	Resources      Resources         `json:"resources,omitempty"`
}

type Resources struct {
	Requests map[string]string `json:"requests,omitempty"`
	Limits   map[string]string `json:"limits,omitempty"`
}

type Param struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
}

type WidgetStep struct {
	Name           string    `json:"name"`
	Image          string    `json:"image,omitempty"`
	Command        []string  `json:"command,omitempty"`
	Args           []string  `json:"args,omitempty"`
	Env            []Param   `json:"env,omitempty"`
	DependsOn      []string  `json:"dependsOn,omitempty"`
	TimeoutSeconds int64     `json:"timeoutSeconds,omitempty"`
	RetryLimit     int32     `json:"retryLimit,omitempty"`
	Inputs         []Param   `json:"inputs,omitempty"`
	Resources      Resources `json:"resources,omitempty"`
}

type NodeStatus struct {
	ID       string  `json:"id"`
	Name     string  `json:"name,omitempty"`
	Phase    string  `json:"phase,omitempty"`
	Started  string  `json:"startedAt,omitempty"`
	Finished string  `json:"finishedAt,omitempty"`
	Outputs  []Param `json:"outputs,omitempty"`
	Message  string  `json:"message,omitempty"`
}
