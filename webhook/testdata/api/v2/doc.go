// Package v2 is a spoke version of the test kind Gadget: its schedule
// is split into fields, and it has no tags or conditions.
//
// +groupName=test.kubewire.dev
package v2
