// Package crd assembles CustomResourceDefinition manifests
// (apiextensions.k8s.io/v1) from the kinds of one or more Go packages
// (package kinds) and their schemas (package crdschema): one manifest
// per group and kind, with a version per package that declares the
// kind, and encodes them as YAML.
package crd
