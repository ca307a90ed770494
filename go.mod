module github.com/kubewire/kubewire

go 1.26

require sigs.k8s.io/yaml v1.6.0

require github.com/evanphx/json-patch/v5 v5.9.11

require github.com/pmezard/go-difflib v1.0.1-0.20181226105442-5d4384ee4fb2

require github.com/coder/websocket v1.8.15

require (
	github.com/beorn7/perks v1.0.1 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/kr/text v0.2.0 // indirect
	github.com/munnerz/goautoneg v0.0.0-20191010083416-a7dc8b61c822 // indirect
	github.com/prometheus/client_golang v1.23.2
	github.com/prometheus/client_model v0.6.2
	github.com/prometheus/common v0.66.1
	github.com/prometheus/procfs v0.16.1 // indirect
	golang.org/x/sys v0.35.0 // indirect
)

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
