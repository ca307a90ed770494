package wire

import (
	"fmt"
	"testing"
	"unsafe"
)

// fillTables decodes four thousand objects' worth of strings and spans.
func fillTables(d *Decoder) {
	for i := range 4000 {
		for _, s := range []string{"default", "app.kubernetes.io/name", "widget", "Ready", "True"} {
			d.String([]byte(s))
			d.StringValue([]byte(s))
		}
		d.String(fmt.Appendf(nil, "widget %05d is serving", i))
		span := fmt.Appendf(nil, `{"name":"widget-%05d"}`, i%300)
		if _, k, ok := d.SharedJSON(span); !ok {
			d.ShareJSON(k, &[]int{i})
		}
	}
}

// Release empties the tables an idle informer does not need: every one
// of a Copied Decoder (nothing else holds what they hold), the string
// tables of others, which keep their collections (a relist shares them).
// A Decoder used after it works as new, its tables small again.
func TestReleaseEmptiesTables(t *testing.T) {
	for _, copied := range []bool{false, true} {
		t.Run(fmt.Sprintf("copied=%v", copied), func(t *testing.T) {
			d := Decoder{ReadOnly: true, Copied: copied}
			fillTables(&d)
			if got := d.tableBytes(); got < 8<<10 {
				t.Fatalf("tables of four thousand objects: %d bytes; the test needs them grown", got)
			}
			before := d.String([]byte("widget"))
			kept := len(d.json.shared.m)
			d.Release()

			if d.strings.slots != nil || d.boxes.slots != nil || d.memo != nil {
				t.Error("the string tables or the memo are held after Release")
			}
			after := d.String([]byte("widget"))
			if after != "widget" || unsafe.StringData(after) == unsafe.StringData(before) {
				t.Error("a string interned before Release is handed out after it")
			}
			if got := 16*len(d.strings.slots) + 4*len(d.strings.ghosts); got > 4<<10 {
				t.Errorf("string table after Release and one string: %d bytes, want at most 4 KiB", got)
			}
			if got := d.tableBytes(); copied && got > 4<<10 {
				t.Errorf("tables after Release and one string: %d bytes, want at most 4 KiB", got)
			}
			if copied {
				if len(d.json.shared.m) != 0 || d.json.seen.bs != nil || d.bytes != nil {
					t.Error("a Copied Decoder keeps shared values after Release")
				}
				if !d.json.seen.keysOnly {
					t.Error("a Copied Decoder's seen table keeps values after Release")
				}
			} else if len(d.json.shared.m) == 0 || len(d.json.shared.m) != kept {
				t.Error("a Decoder whose objects are kept dropped its shared collections")
			}
			fillTables(&d) // decodes on, as new
			if d.String([]byte("widget")) != after {
				t.Error("the table does not intern after Release")
			}
		})
	}
}
