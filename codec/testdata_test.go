package codec

import (
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// fixtures is where the captured kube-apiserver responses are.
const fixtures = "../testdata/kube-apiserver-v1.36.3"

func readFixture(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// watchEvent takes a WatchEvent message apart (type = 1, object = 2, a
// RawExtension whose raw = 1) without the generated meta/v1 types.
func watchEvent(tb testing.TB, b []byte) (typ string, raw []byte) {
	tb.Helper()
	for len(b) > 0 {
		num, wt, n := protowire.ConsumeTag(b)
		if n < 0 || wt != protowire.BytesType {
			tb.Fatalf("bad WatchEvent tag")
		}
		b = b[n:]
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			tb.Fatalf("bad WatchEvent field %d", num)
		}
		b = b[n:]
		switch num {
		case 1:
			typ = string(v)
		case 2:
			for len(v) > 0 {
				num, _, n := protowire.ConsumeTag(v)
				if n < 0 {
					tb.Fatal("bad RawExtension")
				}
				v = v[n:]
				r, n := protowire.ConsumeBytes(v)
				if n < 0 {
					tb.Fatal("bad RawExtension raw")
				}
				v = v[n:]
				if num == 1 {
					raw = r
				}
			}
		}
	}
	return typ, raw
}
