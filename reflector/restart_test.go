package reflector_test

import (
	"testing"
	"time"

	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/reflector"
)

// A server restart closes every connection. That needs real ones, so
// this test runs over loopback and in real time: a synctest bubble
// allows no network I/O, and the in-memory transport has no connection
// to close. Short backoffs keep it fast.
func TestServerRestart(t *testing.T) {
	tests := []struct {
		name        string
		loseHistory bool // the restarted server lost the history (a new watch cache)
		wantRelists int64
	}{
		{"watches resume from the last resourceVersion", false, 1},
		{"history lost: 410, relist", true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newNetEnv(t, 20, fake.Options{})
			st := newCheckStore(e.obs)
			r, stop := e.run(t, st, reflector.Options{
				InitialBackoff: 10 * time.Millisecond,
				MaxBackoff:     50 * time.Millisecond,
				Logger:         testLogger(t),
			})
			waitInSync(t, st, e.obs, 10*time.Second)
			n := len(e.tap.requests("watch", "watch-list"))
			if tt.loseHistory {
				compact(e)
			}
			e.s.Restart()
			e.tap.waitRequests(t, n+1, "watch", "watch-list")
			e.changeSome(t)
			waitInSync(t, st, e.obs, 10*time.Second)
			stop()
			st.verify(t)
			if got := r.Relists(); got != tt.wantRelists {
				t.Errorf("%d relists, want %d", got, tt.wantRelists)
			}
			if !tt.loseHistory {
				resumedFromVersion(t, e, nil)
			}
			if t.Failed() {
				t.Logf("requests:\n%v", e.tap.requests())
			}
		})
	}
}
