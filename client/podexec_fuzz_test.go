package client

import (
	"errors"
	"testing"
)

// FuzzExecStatus feeds commandResult, the decoder of the Status a
// server sends when a command ends, arbitrary bytes: it never panics,
// and every answer is one of the four a caller is told to expect.
func FuzzExecStatus(f *testing.F) {
	f.Add([]byte(exitThree))
	f.Add([]byte(`{"metadata":{},"status":"Success"}`))
	f.Add([]byte(`{"status":"Failure","reason":"InternalError","message":"x"}`))
	f.Add([]byte(`{"status":"Failure","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"2147483648"}]}}`))
	f.Add([]byte(`{"status":"Failure","reason":"NonZeroExitCode","details":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		err := commandResult(b)
		var exit *ExitError
		_, status := StatusOf(err)
		switch {
		case err == nil, status, errors.Is(err, ErrMalformed):
		case errors.As(err, &exit):
			if exit.Code == 0 {
				t.Fatalf("%q: exit code 0 as an error", b)
			}
		default:
			t.Fatalf("%q: unexpected error %T %v", b, err, err)
		}
	})
}
