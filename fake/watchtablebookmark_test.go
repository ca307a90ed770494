package fake

import (
	"bufio"
	"strings"
	"testing"
)

// kube-apiserver converts the bookmark of a watch asked for as a Table
// like any object: a Table of one row printed from an object holding
// only the bookmark's metadata (v1.36.3 for a ConfigMap:
// cells ["",0,"<unknown>"]). Found by TestGeneratedSequences seeds 3 and
// 11: the fake sent the bookmark as a ConfigMap.
func TestWatchTableBookmark(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.createCM("a")
	resp, err := c.hc.Do(c.request("GET", "/api/v1/namespaces/default/configmaps?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan", "application/json;as=Table;v=v1;g=meta.k8s.io", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, `"BOOKMARK"`) {
			continue
		}
		if !strings.Contains(line, `"kind":"Table"`) || !strings.Contains(line, `"cells":["",0,"\u003cunknown\u003e"]`) || !strings.Contains(line, `"kind":"PartialObjectMetadata"`) || !strings.Contains(line, `"k8s.io/initial-events-end":"true"`) {
			t.Errorf("bookmark %s, want a Table of one row", line)
		}
		return
	}
	t.Fatal("no bookmark")
}
