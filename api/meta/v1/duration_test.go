package v1

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/wire"
)

func TestDurationJSON(t *testing.T) {
	tests := []struct {
		name string
		in   Duration
		want string
	}{
		{"zero", Duration{}, `"0s"`},
		{"compound", Duration{time.Hour + 2*time.Minute + 3*time.Second}, `"1h2m3s"`},
		{"sub-second", Duration{1500 * time.Microsecond}, `"1.5ms"`},
		{"negative", Duration{-time.Second}, `"-1s"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("Marshal mismatch (-want +got):\n%s", diff)
			}
			var back Duration
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if back != tt.in {
				t.Errorf("round trip = %v, want %v", back, tt.in)
			}
		})
	}
}

func TestDurationUnmarshalJSON(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    time.Duration
		wantErr bool
	}{
		{"minutes", `"90m"`, 90 * time.Minute, false},
		{"null keeps the value", `null`, time.Second, false},
		{"number", `5`, 0, true},
		{"no unit", `"5"`, 0, true},
		{"empty", `""`, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Duration{time.Second}
			err := json.Unmarshal([]byte(tt.in), &got)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err == nil && got.Duration != tt.want {
				t.Errorf("got %v, want %v", got.Duration, tt.want)
			}
		})
	}
}

func TestDurationProto(t *testing.T) {
	tests := []struct {
		name string
		in   Duration
		want []byte
	}{
		{"zero is written", Duration{}, []byte{0x08, 0x00}},
		{"one second", Duration{time.Second}, []byte{0x08, 0x80, 0x94, 0xeb, 0xdc, 0x03}},
		{"negative", Duration{-1}, []byte{0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.in.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Marshal mismatch (-want +got):\n%s", diff)
			}
			if n := tt.in.Size(); n != len(tt.want) {
				t.Errorf("Size() = %d, want %d", n, len(tt.want))
			}
			back := Duration{time.Hour}
			if err := back.Unmarshal(got); err != nil {
				t.Fatal(err)
			}
			if back != tt.in {
				t.Errorf("Unmarshal = %v, want %v", back, tt.in)
			}
		})
	}
}

func TestDurationUnmarshalProto(t *testing.T) {
	got := Duration{time.Hour}
	if err := got.UnmarshalProto(nil, []byte{0x12, 0x01, 'x', 0x08, 0x05}); err != nil {
		t.Fatal(err)
	}
	if got.Duration != 5 {
		t.Errorf("got %v, want 5ns", got.Duration)
	}
	// UnmarshalProto merges: an empty message changes nothing.
	if err := got.UnmarshalProto(nil, nil); err != nil || got.Duration != 5 {
		t.Errorf("empty merge = %v, %v", got.Duration, err)
	}
	malformed := []struct {
		name string
		in   []byte
	}{
		{"truncated tag", []byte{0x80}},
		{"truncated varint", []byte{0x08, 0xff}},
		{"duration as bytes", []byte{0x0a, 0x00}},
		{"bad unknown field", []byte{0x12, 0x05}},
		{"field zero", []byte{0x00}},
	}
	for _, tt := range malformed {
		t.Run("malformed/"+tt.name, func(t *testing.T) {
			var d Duration
			if err := d.Unmarshal(tt.in); !errors.Is(err, wire.ErrMalformed) {
				t.Errorf("Unmarshal(%x) = %v, want an error matching wire.ErrMalformed", tt.in, err)
			}
		})
	}
}

func TestDurationDeepCopy(t *testing.T) {
	in := Duration{time.Minute}
	var out Duration
	in.DeepCopyInto(&out)
	if out != in || *in.DeepCopy() != in || (*Duration)(nil).DeepCopy() != nil {
		t.Error("DeepCopy gave a wrong answer")
	}
}
