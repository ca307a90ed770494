// Package v2 is the CronJob API with the schedule split into its cron
// fields; kube-apiserver converts it to and from v1 through the
// operator's conversion webhook.
//
// +groupName=batch.tutorial.kubewire.dev
package v2
