package leaderelection

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
)

func TestConfigValidate(t *testing.T) {
	ok := Config{Namespace: "ns", Name: "n", Identity: "me"}
	for _, tt := range []struct {
		name   string
		change func(*Config)
		valid  bool
	}{
		{"defaults", func(*Config) {}, true},
		{"no namespace", func(c *Config) { c.Namespace = "" }, false},
		{"no name", func(c *Config) { c.Name = "" }, false},
		{"no identity", func(c *Config) { c.Identity = "" }, false},
		{"renew deadline as long as the lease", func(c *Config) { c.RenewDeadline = DefaultLeaseDuration }, false},
		{"retry period as long as the renew deadline", func(c *Config) { c.RetryPeriod = DefaultRenewDeadline }, false},
		{"negative", func(c *Config) { c.RetryPeriod = -time.Second }, false},
		{"namespace not a DNS label", func(c *Config) { c.Namespace = "Kube_System" }, false},
		{"namespace with a dot", func(c *Config) { c.Namespace = "a.b" }, false},
		{"name not a DNS subdomain", func(c *Config) { c.Name = "my_operator" }, false},
		{"name with dots", func(c *Config) { c.Name = "operator.example.com" }, true},
		{"short", func(c *Config) {
			c.LeaseDuration, c.RenewDeadline, c.RetryPeriod = 4*time.Second, 3*time.Second, 500*time.Millisecond
		}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := ok
			tt.change(&c)
			err := c.withDefaults().validate()
			if tt.valid != (err == nil) || (err != nil && !errors.Is(err, ErrInvalidConfig)) {
				t.Errorf("validate() = %v, want valid=%v", err, tt.valid)
			}
		})
	}
}

// New refuses what it cannot run with, with an error matching
// ErrInvalidConfig and client.ErrInvalidOptions: Run never fails for it.
func TestNewInvalid(t *testing.T) {
	c, err := client.New(client.Config{Host: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	ok := Config{Namespace: "ns", Name: "n", Identity: "me"}
	bad := ok
	bad.Name = "Not A Name"
	for _, tt := range []struct {
		name string
		c    *client.Client
		cfg  Config
	}{{"nil client", nil, ok}, {"invalid config", c, bad}} {
		e, err := New(tt.c, tt.cfg)
		if e != nil || !errors.Is(err, ErrInvalidConfig) || !errors.Is(err, client.ErrInvalidOptions) {
			t.Errorf("%s: New = %v, %v; want nil and ErrInvalidConfig", tt.name, e, err)
		}
	}
	if _, err := New(c, ok); err != nil {
		t.Errorf("a valid Config: %v", err)
	}
}

func lease(holder string, seconds int32, renew time.Time) *coordinationv1.Lease {
	l := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "n", ResourceVersion: "7"}}
	if holder != "" {
		l.Spec.HolderIdentity = &holder
	}
	if seconds != 0 { // 0: no duration written
		l.Spec.LeaseDurationSeconds = &seconds
	}
	rt := metav1.NewMicroTime(renew)
	l.Spec.RenewTime = &rt
	return l
}

// TestObservation checks that expiry is counted from the local moment a
// record was first seen, whatever times the record holds.
func TestObservation(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	const ours = 15 * time.Second
	for _, tt := range []struct {
		name string
		// reads of the Lease: at t0+at, the lease (nil: absent)
		reads []struct {
			at time.Duration
			l  *coordinationv1.Lease
		}
		checkAt time.Duration
		want    bool
	}{
		{
			name:    "absent",
			reads:   reads(0, nil),
			checkAt: 0, want: true,
		},
		{
			name:    "released",
			reads:   reads(0, lease("", 1, t0)),
			checkAt: 0, want: true,
		},
		{
			name:    "own",
			reads:   reads(0, lease("me", 15, t0)),
			checkAt: 0, want: true,
		},
		{
			name:    "renewTime an hour old is not expired when first seen",
			reads:   reads(0, lease("other", 10, t0.Add(-time.Hour))),
			checkAt: 9 * time.Second, want: false,
		},
		{
			name:    "expired after the holder's duration since first seen",
			reads:   reads(0, lease("other", 10, t0.Add(-time.Hour))),
			checkAt: 10 * time.Second, want: true,
		},
		{
			name:    "renewTime in the future expires all the same",
			reads:   reads(0, lease("other", 10, t0.Add(time.Hour))),
			checkAt: 10 * time.Second, want: true,
		},
		{
			name:    "no duration in the record: ours",
			reads:   reads(0, lease("other", 0, t0)),
			checkAt: 14 * time.Second, want: false,
		},
		{
			name:    "a negative duration in the record: ours",
			reads:   reads(0, lease("other", -5, t0)),
			checkAt: 14 * time.Second, want: false,
		},
		{
			name:    "a negative duration in the record expires after ours",
			reads:   reads(0, lease("other", -5, t0)),
			checkAt: ours, want: true,
		},
		{
			name:    "the largest duration in the record is the holder's to claim",
			reads:   reads(0, lease("other", math.MaxInt32, t0)),
			checkAt: 24 * 365 * time.Hour, want: false,
		},
		{
			name: "a renewal restarts the wait",
			reads: append(reads(0, lease("other", 10, t0)),
				reads(8*time.Second, lease("other", 10, t0.Add(time.Second)))...),
			checkAt: 17 * time.Second, want: false,
		},
		{
			name: "the same record read again does not",
			reads: append(reads(0, lease("other", 10, t0)),
				reads(8*time.Second, lease("other", 10, t0))...),
			checkAt: 10 * time.Second, want: true,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var o observation
			for _, r := range tt.reads {
				o.observe(r.l, t0.Add(r.at))
			}
			if got := o.acquirable("me", ours, t0.Add(tt.checkAt)); got != tt.want {
				t.Errorf("acquirable at +%s = %v, want %v", tt.checkAt, got, tt.want)
			}
		})
	}
}

func reads(at time.Duration, l *coordinationv1.Lease) []struct {
	at time.Duration
	l  *coordinationv1.Lease
} {
	return []struct {
		at time.Duration
		l  *coordinationv1.Lease
	}{{at, l}}
}

// TestClaimAndRelease checks the records written when taking, renewing
// and releasing a Lease.
func TestClaimAndRelease(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	created := claim(nil, "ns", "n", "a", 15*time.Second, at(0))
	if diff := cmp.Diff(Record{Holder: "a", LeaseDuration: 15 * time.Second, AcquireTime: at(0), RenewTime: at(0)}, recordOf(created)); diff != "" {
		t.Errorf("created (-want +got):\n%s", diff)
	}
	renewed := claim(created, "ns", "n", "a", 15*time.Second, at(2*time.Second))
	if diff := cmp.Diff(Record{Holder: "a", LeaseDuration: 15 * time.Second, AcquireTime: at(0), RenewTime: at(2 * time.Second)}, recordOf(renewed)); diff != "" {
		t.Errorf("renewed (-want +got):\n%s", diff)
	}
	taken := claim(renewed, "ns", "n", "b", 1500*time.Millisecond, at(20*time.Second))
	if diff := cmp.Diff(Record{Holder: "b", LeaseDuration: 2 * time.Second, AcquireTime: at(20 * time.Second), RenewTime: at(20 * time.Second), Transitions: 1}, recordOf(taken)); diff != "" {
		t.Errorf("taken over (-want +got):\n%s", diff)
	}
	rel := released(taken, at(21*time.Second))
	if diff := cmp.Diff(Record{LeaseDuration: time.Second, AcquireTime: at(20 * time.Second), RenewTime: at(21 * time.Second), Transitions: 1}, recordOf(rel)); diff != "" {
		t.Errorf("released (-want +got):\n%s", diff)
	}
	again := claim(rel, "ns", "n", "b", 15*time.Second, at(22*time.Second))
	if got := recordOf(again).Transitions; got != 2 {
		t.Errorf("transitions after a release and a new claim = %d, want 2", got)
	}
	if rel.ResourceVersion != taken.ResourceVersion || taken.Name != "n" {
		t.Error("claims and releases must keep the object's metadata (the resourceVersion makes them conditional)")
	}
}
