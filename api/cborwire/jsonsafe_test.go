package cborwire

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// jsonSafe agrees with encoding/json on whether a string is written as it
// is, for every byte value at every position of strings of 0 to 24 bytes
// (the word loop and the byte tail both), and on random strings.
func TestJSONSafeMatchesEncodingJSON(t *testing.T) {
	writtenAsIs := func(b []byte) bool {
		js, err := json.Marshal(string(b))
		return err == nil && string(js) == `"`+string(b)+`"`
	}
	for n := range 25 {
		for at := range n {
			for c := range 256 {
				b := []byte("abcdefghijklmnopqrstuvwxyz"[:n])
				b[at] = byte(c)
				if c >= 0x80 {
					// encoding/json keeps valid UTF-8 as it is; jsonSafe
					// takes ASCII only (others go through the escaper).
					if jsonSafe(b) {
						t.Fatalf("jsonSafe(%q) = true for a non-ASCII byte", b)
					}
					continue
				}
				if got, want := jsonSafe(b), writtenAsIs(b); got != want {
					t.Fatalf("jsonSafe(%q) = %v, want %v", b, got, want)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("az09:./-_ \"\\<>&\x00\x1f\x7f")
	for range 20000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		if got, want := jsonSafe(b), writtenAsIs(b); got != want {
			t.Fatalf("jsonSafe(%q) = %v, want %v", b, got, want)
		}
	}
}
