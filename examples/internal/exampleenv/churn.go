package exampleenv

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
)

// ChurnOptions say how busy Env.Churn keeps the fake server. The zero
// value makes a change every 50ms.
type ChurnOptions struct {
	// Interval is the time between two steps (default 50ms). Each step
	// makes up to four changes: see Env.Churn.
	Interval time.Duration
	// Relabel makes each step also move the ConfigMap it edits to
	// another team, as people relabel objects: its "team" label is set
	// to one of Teams, or removed one step in five. The label is changed
	// first and the data right after, so a controller that acts on the
	// label change often writes a version that is already stale.
	Relabel bool
}

// Teams are the values Churn gives the "team" label of ConfigMaps with
// ChurnOptions.Relabel: the namespaces of the seeded objects and one more.
var Teams = []string{"shop", "payments", "search", "monitoring", "platform"}

// churn runs the steps of Env.Churn. Each step rolls one seeded Pod (the
// oldest is deleted and a new one created in its place, as a rolling
// update does), flips the readiness of a running one (a status change),
// and edits
// one seeded ConfigMap (with opts.Relabel, its team label first); kinds
// that were not seeded are left alone. Which objects change is
// pseudo-random but the same on every run.
func churn(ctx context.Context, c *client.Client, pods, configMaps int, opts ChurnOptions) (int, error) {
	interval := opts.Interval
	if interval <= 0 {
		interval = 50 * time.Millisecond
	}
	rng := rand.New(rand.NewPCG(1, 2))
	podsOf := func(ns string) *client.Resource[*corev1.Pod] { return client.For[*corev1.Pod](c).Namespace(ns) }
	cmsOf := func(ns string) *client.Resource[*corev1.ConfigMap] {
		return client.For[*corev1.ConfigMap](c).Namespace(ns)
	}
	oldest, next := 0, pods // the live seeded Pods are oldest..next-1
	changes := 0
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for step := 0; ; step++ {
		select {
		case <-ctx.Done():
			return changes, nil
		case <-tick.C:
		}
		// A step is finished even if ctx ends during it, so that a
		// rolled Pod is never left deleted without its replacement.
		ctx := context.WithoutCancel(ctx)
		var errs []error
		count := func(err error) {
			switch {
			case err == nil:
				changes++
			case errors.Is(err, client.ErrNotFound), errors.Is(err, client.ErrConflict):
				// the example itself changed or deleted the object
			default:
				errs = append(errs, err)
			}
		}
		if pods > 0 {
			// The kubelet has stopped it: the Pod goes without a grace period.
			zero := int64(0)
			count(podsOf(PodNamespace(oldest)).Delete(ctx, PodName(oldest), client.DeleteOptions{GracePeriodSeconds: &zero}))
			p := Pod(next)
			_, err := podsOf(PodNamespace(next)).Create(ctx, p, client.CreateOptions{})
			count(err)
			if err == nil {
				// A create leaves the status out: the kubelet reports it.
				st, _ := json.Marshal(map[string]any{"status": p.Status})
				_, err = podsOf(PodNamespace(next)).Status().Patch(ctx, p.Name, client.MergePatch, st, client.PatchOptions{})
				if err != nil {
					errs = append(errs, err)
				}
			}
			next++
			oldest++
			if i := oldest + rng.IntN(next-oldest); podRunning(i) {
				// the kubelet reports the Pod's readiness flapping
				ready := []string{"False", "True"}[step%2]
				patch := fmt.Sprintf(`{"status":{"conditions":[{"type":"Ready","status":%q}]}}`, ready)
				_, err = podsOf(PodNamespace(i)).Status().Patch(ctx, PodName(i), client.StrategicMergePatch, []byte(patch), client.PatchOptions{})
				count(err)
			}
		}
		if configMaps > 0 {
			i := rng.IntN(configMaps)
			if opts.Relabel {
				team := `null` // the label is removed
				if step%5 != 4 {
					team = strconv.Quote(Teams[(i+step)%len(Teams)])
				}
				patch := fmt.Sprintf(`{"metadata":{"labels":{"team":%s}}}`, team)
				_, err := cmsOf(ConfigMapNamespace(i)).Patch(ctx, ConfigMapName(i), client.MergePatch, []byte(patch), client.PatchOptions{})
				count(err)
			}
			patch := fmt.Sprintf(`{"data":{"LOG_LEVEL":%q}}`, []string{"debug", "info", "warn"}[step%3])
			_, err := cmsOf(ConfigMapNamespace(i)).Patch(ctx, ConfigMapName(i), client.MergePatch, []byte(patch), client.PatchOptions{})
			count(err)
		}
		if len(errs) > 0 {
			return changes, fmt.Errorf("churn: %w", errors.Join(errs...))
		}
	}
}
