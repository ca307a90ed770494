module github.com/kubewire/kubewire

go 1.26

require (
	github.com/google/go-cmp v0.7.0 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)
