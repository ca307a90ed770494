module github.com/kubewire/kubewire

go 1.26

require sigs.k8s.io/yaml v1.6.0

require github.com/evanphx/json-patch/v5 v5.9.11

require (
	github.com/cenkalti/backoff/v4 v4.3.0
	github.com/google/go-cmp v0.7.0
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8
	go.yaml.in/yaml/v2 v2.4.2 // indirect
	golang.org/x/sync v0.19.0
	golang.org/x/time v0.14.0
	google.golang.org/protobuf v1.36.12
)
