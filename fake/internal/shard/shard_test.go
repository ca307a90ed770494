package shard

import (
	"strings"
	"testing"

	"github.com/kubewire/kubewire/fake/internal/object"
)

func TestParseShardSelector(t *testing.T) {
	const lo, mid, top = "'0x0000000000000000'", "'0x8000000000000000'", "'0x10000000000000000'"
	tests := []struct {
		expr string
		echo string // "" when an error is expected
		err  string
	}{
		{expr: "shardRange(object.metadata.uid, " + lo + ", " + mid + ")",
			echo: "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')"},
		{expr: ` ( shardRange(object.metadata.namespace,"0x0000000000000000",'0x8000000000000000') )||shardRange(object . metadata . namespace, ` + mid + `, ` + top + `) `,
			echo: "shardRange(object.metadata.namespace, '0x0000000000000000', '0x8000000000000000') || shardRange(object.metadata.namespace, '0x8000000000000000', '0x10000000000000000')"},
		{expr: "   ", err: "empty shard selector is not allowed; omit the parameter for unfiltered lists"},
		{expr: "shardRange(object.metadata.uid, '0x0', " + mid + ")",
			err: `hexStart must be a 0x-prefixed 16-digit hex value, got "0x0" (did you mean "0x0000000000000000"?)`},
		{expr: "shardRange(object.metadata.uid, " + lo + ", '8000000000000000')", err: `hexEnd must have '0x' prefix, got "8000000000000000"`},
		{expr: "shardRange(object.metadata.uid, '0x', " + mid + ")", err: "hexStart: hex value is required after '0x'"},
		{expr: "shardRange(object.metadata.uid, " + lo + ", '0x800000000000000000')", err: `hexEnd: hex value too long (18 chars, max 17): "800000000000000000"`},
		{expr: "shardRange(object.metadata.uid, " + lo + ", '0x8000000000000G00')", err: `hexEnd: invalid hex character "G" in "0x8000000000000G00"`},
		{expr: "shardRange(object.metadata.uid, " + lo + ", '0x20000000000000000')", err: `hexEnd: 17-digit hex value must be '0x10000000000000000' (2^64), got "0x20000000000000000"`},
		{expr: "shardRange(object.metadata.uid, 0, " + mid + ")", err: "hexStart must be a string literal, got int64"},
		{expr: "shardRange(object.metadata.uid, x, " + mid + ")", err: "hexStart must be a string literal (e.g. '0xff'), got expression kind 3"},
		{expr: "shardRange(object.metadata.name, " + lo + ", " + mid + ")", err: `unsupported field path "object.metadata.name"; supported: object.metadata.uid, object.metadata.namespace`},
		{expr: "shardRange('uid', " + lo + ", " + mid + ")", err: "shardRange() first argument: expected field path (e.g. object.metadata.uid), got expression kind 5"},
		{expr: "shardRange(object.metadata.uid, " + lo + ")", err: "shardRange() requires exactly 3 arguments, got 2"},
		{expr: "shardRange(object.metadata.uid, " + mid + ", " + lo + ")", err: "shard range start 0x8000000000000000 must be less than end 0x0000000000000000"},
		{expr: "shardRange(object.metadata.uid, " + lo + ", " + mid + ") && shardRange(object.metadata.uid, " + mid + ", " + top + ")",
			err: `unsupported function "_&&_"; only shardRange() and || are allowed`},
		{expr: "hash(object.metadata.uid) < 5", err: `unsupported function "_<_"; only shardRange() and || are allowed`},
		{expr: "object.metadata.uid", err: "unexpected expression kind 7; expected shardRange() call or || operator"},
		{expr: "shardRange(object.metadata.uid, " + lo + ", " + mid + ") || shardRange(object.metadata.namespace, " + mid + ", " + top + ")",
			err: `all shard ranges must use the same field, got "object.metadata.uid" and "object.metadata.namespace"`},
		{expr: "shardRange(object.metadata.uid, " + lo, err: "CEL parse error: "},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			sel, err := Parse(tc.expr)
			if tc.echo != "" {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				if got := sel.String(); got != tc.echo {
					t.Errorf("echo %s\nwant %s", got, tc.echo)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) || (!strings.HasSuffix(tc.err, ": ") && err.Error() != tc.err) {
				t.Errorf("error %v\nwant  %s", err, tc.err)
			}
		})
	}
}

func TestShardSelectorMatches(t *testing.T) {
	// FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c; of "" 0xcbf29ce484222325.
	o := &object.Stored{UID: "a", Namespace: ""}
	for expr, want := range map[string]bool{
		"shardRange(object.metadata.uid, '0xaf63dc4c8601ec8c', '0xaf63dc4c8601ec8d')":        true,
		"shardRange(object.metadata.uid, '0xaf63dc4c8601ec8d', '0x10000000000000000')":       false,
		"shardRange(object.metadata.uid, '0x0000000000000000', '0xaf63dc4c8601ec8c')":        false,
		"shardRange(object.metadata.namespace, '0xcbf29ce484222325', '0x10000000000000000')": true,
	} {
		sel, err := Parse(expr)
		if err != nil {
			t.Fatal(err)
		}
		if got := sel.Matches(o); got != want {
			t.Errorf("%s matches = %v, want %v", expr, got, want)
		}
	}
}
