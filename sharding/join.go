package sharding

import (
	"context"

	"github.com/kubewire/kubewire/client"
)

// Ring is a Member as package manager runs it (manager.Options.Sharding).
type Ring interface {
	Ring() string
	Key() client.ShardKey
	Add(cs ...Consumer)
	Run(ctx context.Context) error
	Status() Status
	Ready() error
}

// Join returns a member of the ring cfg names, as New does, the Name,
// Namespace and Logger cfg leaves empty taken from defaults. It is what
// manager.Options.Sharding calls: through it, a program whose manager
// does not shard links none of this package.
func (cfg *Config) Join(c *client.Client, defaults Config) (Ring, error) {
	if cfg == nil {
		return nil, invalid("Join called on a nil Config")
	}
	full := *cfg
	if full.Name == "" {
		full.Name = defaults.Name
	}
	if full.Namespace == "" {
		full.Namespace = defaults.Namespace
	}
	if full.Logger == nil {
		full.Logger = defaults.Logger
	}
	m, err := New(c, full)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Ring returns the name of the member's ring.
func (m *Member) Ring() string { return m.cfg.Name }
