package client

import (
	"context"
	"errors"
	"strings"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/codec"
)

// A protobuf answer whose envelope has no raw field holds no object: Get
// and List refuse it as a watch event and the streamed list already did.
// Before, Get returned an empty Pod (kind Pod, no name) and List an empty
// PodList.
func TestProtobufEnvelopeWithoutRaw(t *testing.T) {
	ctx := context.Background()
	pods := GroupVersionResource{Version: "v1", Resource: "pods"}
	for name, tc := range map[string]struct {
		body []byte
		call func(c *Client) error
	}{
		"get": {envelope("Pod", nil, ""), func(c *Client) error {
			_, err := For[*corev1.Pod](c).Namespace("d").Get(ctx, "x", GetOptions{})
			return err
		}},
		"metadata get": {envelope("PartialObjectMetadata", nil, ""), func(c *Client) error {
			_, err := Metadata(c, pods, true).Namespace("d").Get(ctx, "x", GetOptions{})
			return err
		}},
		"list": {envelope("PodList", nil, ""), func(c *Client) error {
			_, err := For[*corev1.Pod](c).Namespace("d").List(ctx, ListOptions{})
			return err
		}},
	} {
		t.Run(name, func(t *testing.T) {
			c, _ := newServer(t, reply(200, codec.MediaTypeProtobuf, tc.body))
			if err := tc.call(c); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "holds no") {
				t.Errorf("%v; want ErrMalformed saying the envelope holds nothing", err)
			}
		})
	}
	// An empty raw field is an empty list, as the streamed list reads it.
	c, _ := newServer(t, reply(200, codec.MediaTypeProtobuf, envelope("PodList", []byte{}, "")))
	if l, err := For[*corev1.Pod](c).List(ctx, ListOptions{}); err != nil || len(l.Items) != 0 {
		t.Errorf("an empty raw list: %v", err)
	}
}
