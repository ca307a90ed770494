//go:build tools

package main

// The upstream API packages the generator reads; listed so that go.mod pins
// their version.
import (
	_ "k8s.io/api/core/v1"
	_ "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	_ "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
)
