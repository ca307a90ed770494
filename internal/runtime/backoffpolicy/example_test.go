package backoffpolicy_test

import (
	"fmt"
	"time"

	"github.com/kubewire/kubewire/internal/runtime/backoffpolicy"
)

func ExamplePolicy() {
	p := backoffpolicy.Policy{Initial: 800 * time.Millisecond, Max: 30 * time.Second, Jitter: -1}
	b := p.New()
	var waits []time.Duration
	for range 7 {
		waits = append(waits, b.NextBackOff())
	}
	fmt.Println(waits)
	// With jitter, waits still never pass Max.
	j := backoffpolicy.Policy{Initial: 800 * time.Millisecond, Max: 30 * time.Second}.New()
	longest := time.Duration(0)
	for range 1000 {
		longest = max(longest, j.NextBackOff())
	}
	fmt.Println(longest <= 30*time.Second)
	// Output:
	// [800ms 1.6s 3.2s 6.4s 12.8s 25.6s 30s]
	// true
}
