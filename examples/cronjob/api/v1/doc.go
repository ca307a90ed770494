// Package v1 is the CronJob API's hub version, stored by kube-apiserver:
// a schedule in cron format and a Job template. kubewire-gen wrote
// zz_generated.kubewire.go, ../../config/crd and ../../config/webhook.
//
// +groupName=batch.tutorial.kubewire.dev
package v1

//go:generate go run github.com/kubewire/kubewire/cmd/kubewire-gen -applyconfig=false -crd-dir ../../config/crd -webhook-dir ../../config/webhook . ../v2 ../../operator
