package codec_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/kubewire/kubewire/codec"
)

// Example shows a client's view: build the Accept header, look at the
// response's Content-Type, and read a JSON watch stream event by event.
func Example() {
	fmt.Println("Accept:", codec.AcceptFor(true, ""))
	fmt.Println("Accept:", codec.AcceptFor(false, codec.AsTable))

	ct, err := codec.ParseMediaType("application/vnd.kubernetes.protobuf;stream=watch")
	if err != nil {
		panic(err)
	}
	fmt.Println("protobuf:", ct.IsProtobuf(), "watch:", ct.IsWatchStream())

	stream := strings.NewReader(`{"type":"ADDED","object":{"kind":"ConfigMap","metadata":{"name":"cm-1"}}}
{"type":"BOOKMARK","object":{"kind":"ConfigMap","metadata":{"resourceVersion":"240"}}}
{"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired"}}
`)
	events := codec.NewJSONStream(stream, codec.StreamOptions{})
	for {
		typ, object, err := events.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		// object is valid until the next call: decode it here.
		var obj struct {
			Kind string `json:"kind"`
		}
		if err := codec.DecodeJSON(object, &obj); err != nil {
			panic(err)
		}
		fmt.Println(typ, obj.Kind)
	}
	// Output:
	// Accept: application/vnd.kubernetes.protobuf, application/json
	// Accept: application/json;as=Table;g=meta.k8s.io;v=v1, application/json
	// protobuf: true watch: true
	// ADDED ConfigMap
	// BOOKMARK ConfigMap
	// ERROR Status
}

// ExampleDecodeEnvelope reads the apiVersion and kind of a protobuf body
// without a type for it, and shows the error for a body that is not
// protobuf.
func ExampleDecodeEnvelope() {
	body := codec.EncodeEnvelope("v1", "Pod", []byte{0x0a, 0x00})
	u, err := codec.DecodeEnvelope(body)
	if err != nil {
		panic(err)
	}
	fmt.Println(u.APIVersion, u.Kind, len(u.Raw))

	_, err = codec.DecodeEnvelope([]byte(`{"kind":"Status"}`))
	fmt.Println(errors.Is(err, codec.ErrMalformed))
	fmt.Println(err)
	// Output:
	// v1 Pod 2
	// true
	// codec: protobuf envelope at byte 0: body starts with 7b226b696e64223a2253746174757322... ("{\"kind\":\"Status\""...), not the magic 6b387300 ("k8s\x00"); it looks like JSON: was the response application/json?
}

// ExampleFrameReader splits a protobuf watch stream into frames.
func ExampleFrameReader() {
	var stream bytes.Buffer
	for _, payload := range []string{"first event", "second event"} {
		if err := codec.WriteFrame(&stream, []byte(payload)); err != nil {
			panic(err)
		}
	}
	frames := codec.NewFrameReader(&stream, codec.StreamOptions{})
	for {
		payload, err := frames.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		fmt.Printf("%q\n", payload)
	}
	// Output:
	// "first event"
	// "second event"
}

// ExampleNegotiate is what a server (such as the fake API server) does
// with a client's Accept header.
func ExampleNegotiate() {
	accept, err := codec.ParseAccept(codec.AcceptProtobufOrJSON)
	if err != nil {
		panic(err)
	}
	customResource := []codec.MediaType{{Type: "application", Subtype: "json"}, {Type: "application", Subtype: "yaml"}}
	served, ok := codec.Negotiate(accept, customResource)
	fmt.Println(served, ok)
	// Output:
	// application/json true
}
