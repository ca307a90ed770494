package client

import (
	"reflect"

	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/codec"
)

// A kind whose type has no generated JSON codec (a KindInfo written by
// hand, a type from a module kubewire-gen did not run on) still works:
// codec.DecodeJSON falls back to encoding/json. But that path is
// reflection, several times slower, and its objects share no strings or
// maps in a cache, so an informer of such a kind holds about what
// client-go's would. For says so once per type and Client, so that the
// cost is not silent.

// warnIfReflected logs, the first time c sees the kind T, that T's JSON
// answers decode through encoding/json, unless T has a generated
// decoder, or rides protobuf (a built-in kind with an Unmarshal method).
func warnIfReflected[T Kinded](c *Client, protobuf bool) {
	var zero T
	if _, ok := any(zero).(jsonwire.Decodable); ok {
		return
	}
	if _, ok := any(zero).(codec.ProtobufUnmarshaler); ok && protobuf {
		return
	}
	t := reflect.TypeFor[T]()
	if _, seen := c.reflected.LoadOrStore(t, true); seen {
		return
	}
	c.Logger().Warn("client: "+t.String()+" has no generated DecodeJSON method, so its objects decode through encoding/json: "+
		"several times slower, and cached without sharing strings or maps; run kubewire-gen on its package (see cmd/kubewire-gen)",
		"type", t.String())
}
