package chaos

import (
	"context"
	"flag"
	"testing"
	"time"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/reflector"
)

var (
	duration = flag.Duration("chaos.duration", 4*time.Second, "how long the chaos workload runs (try 10m)")
	seed     = flag.Uint64("chaos.seed", 1, "seed of the workload and of the faults")
)

// FakeFaults are the failures the fake server can inject.
func fakeFaults(s *fake.Server) []Fault {
	f := s.Faults()
	return []Fault{
		{"watch drop", f.DropWatches},
		{"compaction (410)", func() { s.Compact(); f.DropWatches() }},
		{"compaction during lists", s.Compact},
		{"429 storm", func() { f.FailNext(8, 429, 0) }},
		{"5xx storm", func() { f.FailNext(8, 503, 0) }},
		{"restart", s.Restart},
		{"corrupt frame", f.CorruptNextEvent},
		{"event cut midway", f.CloseNextEventMidway},
		{"watch-list refused", func() { f.SetWatchList(fake.WatchListRefused); f.DropWatches() }},
		{"watch-list never ends", func() { f.SetWatchList(fake.WatchListNoEndBookmark); f.DropWatches() }},
		{"too large resource version", func() { f.TooLargeResourceVersionNext(3) }},
		{"slow server", func() { f.SetLatency(20 * time.Millisecond) }},
		{"drop after a few events", func() { f.DropWatchesAfter(3) }},
	}
}

func TestChaosFake(t *testing.T) {
	s, cfg := fakeclient.Start(fake.Options{
		Namespaces:       []string{"default", "chaos-a", "chaos-b"},
		BookmarkInterval: 300 * time.Millisecond,
		HistoryLimit:     200,
	})
	t.Cleanup(s.Close)
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Config{
		Client:     c,
		Namespaces: []string{"chaos-a", "chaos-b"},
		Duration:   *duration,
		Seed:       *seed,
		Faults:     fakeFaults(s),
		Clear:      s.Faults().Clear,
		Reflector: reflector.Options{
			InitialBackoff:   10 * time.Millisecond,
			MaxBackoff:       300 * time.Millisecond,
			WatchListTimeout: time.Second,
			WatchTimeout:     2 * time.Second,
		},
		Settle: 30 * time.Second,
	})
	t.Log(rep)
	if err != nil {
		t.Fatalf("seed %d: %v", *seed, err)
	}
	if len(rep.Divergences) > 0 {
		t.Errorf("seed %d: %d divergences (rerun with -chaos.seed=%d)", *seed, len(rep.Divergences), *seed)
	}
	if total(rep.Operations) == 0 || total(rep.Faults) == 0 {
		t.Errorf("the run did nothing: %v", rep)
	}
}
