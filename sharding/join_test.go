package sharding_test

import (
	"errors"
	"log/slog"
	"testing"

	"github.com/kubewire/kubewire/sharding"
)

// Join takes what the Config leaves empty from the defaults and keeps
// what it sets; it refuses what New refuses, and a nil Config.
func TestJoinDefaults(t *testing.T) {
	c, _ := memClient(t, memServer(t))
	defaults := sharding.Config{Name: "from-manager", Namespace: "default", Logger: slog.New(slog.DiscardHandler)}
	r, err := (&sharding.Config{Identity: "a"}).Join(c, defaults)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := r.(*sharding.Member); !ok || r.Ring() != "from-manager" || m.Identity() != "a" {
		t.Errorf("Join: ring %q, %T", r.Ring(), r)
	}
	r, err = (&sharding.Config{Name: "own", Identity: "a"}).Join(c, defaults)
	if err != nil || r.Ring() != "own" {
		t.Errorf("Join with a Name: %v, %v", r, err)
	}
	if _, err := (&sharding.Config{Name: "Bad Name"}).Join(c, defaults); !errors.Is(err, sharding.ErrInvalidConfig) {
		t.Errorf("Join with a bad name: %v", err)
	}
	var nilConfig *sharding.Config
	if _, err := nilConfig.Join(c, defaults); !errors.Is(err, sharding.ErrInvalidConfig) {
		t.Errorf("Join on nil: %v", err)
	}
}
