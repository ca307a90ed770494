package e2e

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestGeneratedSequenceIsTheSeeds checks that a seed gives the same
// sequence every time (a reported seed reproduces) and that seeds give
// different ones covering every kind.
func TestGeneratedSequenceIsTheSeeds(t *testing.T) {
	render := func(seq genSeq) []string {
		var out []string
		for _, s := range seq.steps {
			out = append(out, fmt.Sprint(s.method, " ", s.path, " ", string(s.body), " ", s.headers, " ", s.saves))
		}
		return out
	}
	a, b := render(genSequence(7, 80)), render(genSequence(7, 80))
	if !reflect.DeepEqual(a, b) {
		t.Fatal("seed 7 gave two different sequences")
	}
	if reflect.DeepEqual(a, render(genSequence(8, 80))) {
		t.Fatal("seeds 7 and 8 gave the same sequence")
	}
	seen := map[string]bool{}
	for seed := uint64(1); seed <= 20; seed++ {
		for _, s := range genSequence(seed, 80).steps {
			for _, k := range genKinds {
				if len(s.path) >= len(k.collection) && s.path[:len(k.collection)] == k.collection {
					seen[k.name] = true
				}
			}
		}
	}
	for _, k := range genKinds {
		if !seen[k.name] {
			t.Errorf("no request of kind %s in 20 seeds", k.name)
		}
	}
}

// TestGeneratedNameOrderOfTableEvents checks that watch events of Tables
// whose one row is an object with a generated name compare in any order,
// as bare objects' events do (seed 2174 differed only in the order of
// two such Services' events).
func TestGeneratedNameOrderOfTableEvents(t *testing.T) {
	event := func(port string) any {
		return map[string]any{"type": "ADDED", "object": map[string]any{"kind": "Table", "rows": []any{
			map[string]any{"cells": []any{port}, "object": map[string]any{"metadata": map[string]any{"name": "svc-gen-<random>"}}},
		}}}
	}
	a := genCompared{Answer: normalized{Body: []any{event("81/TCP"), event("82/TCP")}}, RVOrder: []int{2, 9}}
	b := genCompared{Answer: normalized{Body: []any{event("82/TCP"), event("81/TCP")}}, RVOrder: []int{9, 2}}
	if !reflect.DeepEqual(inGeneratedNameOrder(a), inGeneratedNameOrder(b)) {
		t.Fatal("Table events of generated names in another order compare unequal")
	}
}

// TestWatchWindowTimingIsKnown checks that a watch from resourceVersion=1
// one server serves and the other refuses as too old passes as the
// known timing difference, and that other watches and other refusals do
// not.
func TestWatchWindowTimingIsKnown(t *testing.T) {
	tooOld := genCompared{Answer: normalized{Code: 200, Body: []any{map[string]any{"type": "ERROR", "object": map[string]any{"code": 410, "message": "too old resource version: <rv> (<rv>)"}}}}}
	served := genCompared{Answer: normalized{Code: 200, Body: []any{map[string]any{"type": "ADDED", "object": map[string]any{"kind": "Pod"}}}}}
	forbidden := genCompared{Answer: normalized{Code: 200, Body: []any{map[string]any{"type": "ERROR", "object": map[string]any{"code": 500, "message": "internal error"}}}}}
	fromOne := &step{method: "GET", path: "/api/v1/namespaces/${ns}/pods?watch=true&resourceVersion=1", stream: true}
	fromSaved := &step{method: "GET", path: "/api/v1/namespaces/${ns}/pods?watch=true&resourceVersion=${listrv3}", stream: true}
	for _, c := range []struct {
		st         *step
		real, fake genCompared
		known      bool
	}{
		{fromOne, served, tooOld, true},
		{fromOne, tooOld, served, true},
		{fromOne, served, forbidden, false},
		{fromSaved, served, tooOld, false},
	} {
		if got := knownDifference(c.st, c.real, c.fake) != ""; got != c.known {
			t.Errorf("%s: kube-apiserver %v, fake %v: known %v, want %v", c.st.path, c.real.Answer.Body, c.fake.Answer.Body, got, c.known)
		}
	}
}

// TestControllerOpsFromTheirSeeds checks that the controller operations
// come in from genControllerFirst on and the later ones from
// genLaterFirst, not before, so that older seeds keep their sequences.
func TestControllerOpsFromTheirSeeds(t *testing.T) {
	count := func(first uint64) int {
		n := 0
		for seed := first; seed < first+20; seed++ {
			for _, s := range genSequence(seed, 60).steps {
				if strings.Contains(s.name, " as bob") || strings.HasPrefix(s.name, "bind ") || strings.Contains(s.name, " page") {
					n++
				}
			}
		}
		return n
	}
	if n := count(genExtendedFirst); n != 0 {
		t.Errorf("seeds %d-%d: %d controller steps, want none", genExtendedFirst, genExtendedFirst+19, n)
	}
	if n := count(genControllerFirst); n == 0 {
		t.Errorf("seeds %d-%d: no controller steps", genControllerFirst, genControllerFirst+19)
	}
	later := func(first uint64) int {
		n := 0
		for seed := first; seed < first+20; seed++ {
			for _, s := range genSequence(seed, 60).steps {
				if strings.Contains(s.name, "version match") || strings.Contains(s.name, "finalizer as") {
					n++
				}
			}
		}
		return n
	}
	if n := later(genControllerFirst); n != 0 {
		t.Errorf("seeds %d-%d: %d later steps, want none", genControllerFirst, genControllerFirst+19, n)
	}
	if n := later(genLaterFirst); n == 0 {
		t.Errorf("seeds %d-%d: no later steps", genLaterFirst, genLaterFirst+19)
	} else {
		t.Logf("seeds %d-%d: %d later steps", genLaterFirst, genLaterFirst+19, n)
	}
}

// TestNotOlderThanWithLimitIsACacheRead checks that a NotOlderThan list
// with a limit, which kube-apiserver's watch cache serves without
// waiting (only a limit without resourceVersionMatch is an exact read),
// passes as the known difference of a read a moment behind (seeds 5214
// and 5236), and an Exact one does not.
func TestNotOlderThanWithLimitIsACacheRead(t *testing.T) {
	older := genCompared{Answer: normalized{Code: 200}, RVOrder: []int{2}}
	newer := genCompared{Answer: normalized{Code: 200}, RVOrder: []int{5}}
	for path, want := range map[string]bool{
		"/api/v1/namespaces/${ns}/secrets?limit=2&resourceVersion=${listrv1}&resourceVersionMatch=NotOlderThan": true,
		"/api/v1/namespaces/${ns}/secrets?resourceVersion=${listrv1}":                                           true,
		"/api/v1/namespaces/${ns}/secrets?limit=2&resourceVersion=${listrv1}":                                   false,
		"/api/v1/namespaces/${ns}/secrets?limit=2&resourceVersion=${listrv1}&resourceVersionMatch=Exact":        false,
	} {
		if got := knownDifference(&step{method: "GET", path: path}, older, newer) != ""; got != want {
			t.Errorf("%s: known %v, want %v", path, got, want)
		}
	}
}

// TestCacheReadMissingTheNewestIsKnown checks that a resourceVersion=0
// list kube-apiserver answers without the objects written last (its
// watch cache a moment behind) passes as known, and one missing an
// older object does not.
func TestCacheReadMissingTheNewestIsKnown(t *testing.T) {
	st := &step{method: "GET", path: "/api/v1/namespaces/${ns}/configmaps?limit=1&resourceVersion=0&resourceVersionMatch=NotOlderThan"}
	for _, c := range []struct {
		real, fake []int
		known      bool
	}{
		{nil, []int{12}, true},
		{[]int{3}, []int{3, 12}, true},
		{[]int{12}, []int{3, 12}, false},
		{[]int{3, 12}, []int{3, 12, 13}, true},
		{[]int{3}, []int{4, 12}, false},
	} {
		real := genCompared{Answer: normalized{Code: 200}, RVOrder: c.real}
		fake := genCompared{Answer: normalized{Code: 200}, RVOrder: c.fake}
		if got := knownDifference(st, real, fake) != ""; got != c.known {
			t.Errorf("kube-apiserver %v, fake %v: known %v, want %v", c.real, c.fake, got, c.known)
		}
	}
}

// TestManagedFieldsCompareWithoutTimeOrder checks that one manager's
// entries of two API versions compare in either order, as kube-apiserver
// orders them by the second of their time before the version (seed 6054).
func TestManagedFieldsCompareWithoutTimeOrder(t *testing.T) {
	entry := func(v string) any {
		return map[string]any{"manager": "m", "operation": "Update", "apiVersion": v}
	}
	a := []any{entry("g/v1"), entry("g/v1beta1")}
	b := []any{entry("g/v1beta1"), entry("g/v1")}
	sortManagedFields(a)
	sortManagedFields(b)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("entries of two versions compare in their order: %v, %v", a, b)
	}
}

// TestWatchBehindDeleteIsKnown checks that a watch from resourceVersion=0
// whose events are the fake's plus an ADDED and a DELETED event of an
// object the fake's watch does not name passes as kube-apiserver's cache
// a moment behind a delete, and that other extra events do not.
func TestWatchBehindDeleteIsKnown(t *testing.T) {
	ev := func(typ, name string) any {
		return map[string]any{"type": typ, "object": map[string]any{"metadata": map[string]any{"name": name}}}
	}
	answer := func(events ...any) genCompared {
		return genCompared{Answer: normalized{Code: 200, Body: events}}
	}
	fromZero := &step{method: "GET", path: "/apis/g/v1/namespaces/${ns}/shapes?watch=true&resourceVersion=0", stream: true}
	fromNow := &step{method: "GET", path: "/apis/g/v1/namespaces/${ns}/shapes?watch=true", stream: true}
	fake := answer(ev("ADDED", "a"), ev("ADDED", "zz"))
	for _, c := range []struct {
		st    *step
		real  genCompared
		known bool
	}{
		{fromZero, answer(ev("ADDED", "a"), ev("ADDED", "gone"), ev("DELETED", "gone"), ev("ADDED", "zz")), true},
		{fromNow, answer(ev("ADDED", "a"), ev("ADDED", "gone"), ev("DELETED", "gone"), ev("ADDED", "zz")), false},
		{fromZero, answer(ev("ADDED", "a"), ev("ADDED", "gone"), ev("ADDED", "zz")), false},
		{fromZero, answer(ev("ADDED", "a"), ev("ADDED", "a"), ev("DELETED", "a"), ev("ADDED", "zz")), false},
		{fromZero, fake, false},
	} {
		if got := addedThenDeletedOnly(c.real.Answer, fake.Answer) && knownDifference(c.st, c.real, fake) != ""; got != c.known {
			t.Errorf("%s %v: known %v, want %v", c.st.path, c.real.Answer.Body, got, c.known)
		}
	}
}
