package events

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kubewire/kubewire/client"
)

func TestOptionsValidate(t *testing.T) {
	for _, tt := range []struct {
		name  string
		opts  Options
		valid bool
	}{
		{"plain name", Options{Component: "my-controller", Instance: "i"}, true},
		{"prefixed name", Options{Component: "example.com/my-controller", Instance: "i"}, true},
		{"no component", Options{Instance: "i"}, false},
		{"space", Options{Component: "my controller", Instance: "i"}, false},
		{"two slashes", Options{Component: "a/b/c", Instance: "i"}, false},
		{"name too long", Options{Component: strings.Repeat("a", 64), Instance: "i"}, false},
		{"negative duration", Options{Component: "c", Instance: "i", FlushTimeout: -time.Second}, false},
		{"default instance", Options{Component: "c"}, true}, // the host name
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.opts.withDefaults().validate()
			if tt.valid != (err == nil) || (err != nil && !errors.Is(err, ErrInvalidOptions)) {
				t.Errorf("validate() = %v, want valid=%v", err, tt.valid)
			}
		})
	}
}

// NewRecorder refuses what it cannot run with, with an error matching
// ErrInvalidOptions and client.ErrInvalidOptions.
func TestNewRecorderInvalid(t *testing.T) {
	c, err := client.New(client.Config{Host: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		c    *client.Client
		opts Options
	}{
		{"nil client", nil, Options{Component: "c"}},
		{"no component", c, Options{}},
		{"negative queue size", c, Options{Component: "c", QueueSize: -1}},
	} {
		r, err := NewRecorder(tt.c, tt.opts)
		if r != nil || !errors.Is(err, ErrInvalidOptions) || !errors.Is(err, client.ErrInvalidOptions) {
			t.Errorf("%s: NewRecorder = %v, %v; want nil and ErrInvalidOptions", tt.name, r, err)
		}
	}
}

func TestNamePrefix(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"web-1", "web-1"},
		{"system:controller:Foo", "system-controller-foo"},
		{"-.x.-", "x"},
		{"::", "event"},
		{strings.Repeat("a", 300), strings.Repeat("a", 200)},
	} {
		if got := namePrefix(tt.in, 200); got != tt.want {
			t.Errorf("namePrefix(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTruncate(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"héllo", 2, "h"}, // é is two bytes: not split
		{"héllo", 3, "hé"},
	} {
		if got := truncate(tt.in, tt.n); got != tt.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
