package markers

// Names of controller-gen's webhook markers, which describe the package
// (they may stand in any comment of it): one webhook, and the name of
// the configuration holding the mutating or validating ones.
const (
	Webhook              = "kubebuilder:webhook"
	WebhookConfiguration = "kubebuilder:webhookconfiguration"
)

// webhookForm is the form of the webhook markers, unknown for others.
func webhookForm(name string) form {
	switch name {
	case Webhook, WebhookConfiguration:
		return args
	}
	return unknown
}

// webhookNames are the webhook markers, for Known.
func webhookNames() []string { return []string{Webhook, WebhookConfiguration} }
