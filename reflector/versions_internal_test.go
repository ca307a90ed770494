package reflector

import (
	"errors"
	"testing"

	"github.com/kubewire/kubewire/client"
)

// resourceVersions compare as integers of any length (KEP-5504), not as
// strings nor as uint64s: a version past 2^64 is newer, not malformed.
func TestBefore(t *testing.T) {
	for _, tc := range []struct {
		rv, than  string
		older     bool
		malformed bool
	}{
		{"9", "10", true, false},
		{"10", "9", false, false},
		{"10", "10", false, false},
		{"", "10", false, false},
		{"100000000000000000000001", "99999999999999999999", false, false},
		{"99999999999999999999", "100000000000000000000001", true, false},
		{"lagging-7", "10", false, true},
		{"0", "10", false, true},
		{"010", "9", false, true},
		{"5", "opaque", false, false},
		{"5", "", false, false},
	} {
		older, err := before(tc.rv, tc.than)
		if older != tc.older || errors.Is(err, client.ErrMalformed) != tc.malformed {
			t.Errorf("before(%q, %q) = %v, %v; want %v, malformed %v", tc.rv, tc.than, older, err, tc.older, tc.malformed)
		}
	}
}
