package main

import (
	"bytes"
	"strings"
	"testing"
)

// The benchmark runs end to end on a few Widgets: both operators build,
// converge and serve /metrics, every figure is measured, and the
// verdicts are printed.
func TestQuick(t *testing.T) {
	var out, log bytes.Buffer
	r, err := run(config{widgets: 20, rounds: 1, out: &out, log: &log})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	for name, f := range map[string]figures{"kubewire": r.kubewire, "controller-runtime": r.cr} {
		if f.lines < 50 || f.binary < 1e6 || f.stripped >= f.binary || f.linked < 2 || len(f.rss) != 1 || f.rss[0] < 1e6 {
			t.Errorf("%s: implausible figures %+v", name, f)
		}
	}
	if r.withMetrics <= r.withoutMetrics {
		t.Errorf("metrics cost %d -> %d bytes", r.withoutMetrics, r.withMetrics)
	}
	if !r.pass["lines"] {
		t.Errorf("the operator is over its line budget:\n%s", out.String())
	}
	if !r.pass["link"] {
		t.Errorf("the operator links code cut from it:\n%s", out.String())
	}
	if r.floor < 1e6 || r.floor >= r.kubewire.binary || r.floorStripped >= r.kubewire.stripped {
		t.Errorf("implausible floor %d (%d stripped) beside the operator's %d (%d)", r.floor, r.floorStripped, r.kubewire.binary, r.kubewire.stripped)
	}
	for _, verdict := range []string{"lines", "binary", "RSS"} {
		if !strings.Contains(strings.ToLower(out.String()), strings.ToLower(verdict)) {
			t.Errorf("no %s verdict:\n%s", verdict, out.String())
		}
	}
	t.Log("\n" + out.String())
}
