package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/cel"
)

// The fidelity check sends the same catalog of raw requests (fidelity
// catalog) to a fresh fake server and to a fresh kube-apiserver, one
// scenario after another, and compares every answer after normalising
// what legitimately differs between two servers (uids, resource
// versions, timestamps, generated names, continue tokens; see
// normalize). It prints one line per request and the share of answers
// that are identical (status code, the Content-Type and Warning headers,
// and the body).
//
// It fails only when the share falls below fidelityFloor, the figure last
// reached; the goal (fidelityGoal) is printed as PASS or FAIL without
// failing the test. Run it with -v to see the diff of every mismatch, and
// with -fidelity.report=FILE to write the mismatches to a file.

const (
	// fidelityGoal is the share of identical answers the fake aims at.
	fidelityGoal = 0.90
	// fidelityFloor is the share the fake has reached; the test fails
	// below it. Raise it when the fake gets better.
	fidelityFloor = 0.99
)

var (
	fidelityReport = flag.String("fidelity.report", "", "write every mismatch of TestFidelity, with its diff, to this file")
	fidelityDump   = flag.String("fidelity.dump", "", "write every normalised answer of both servers to this file, one JSON object a line")
)

// fidelityUserAgent is the User-Agent of every request unless a step sets
// one: its program name, "fidelity", is the field manager of writes that
// name none.
const fidelityUserAgent = "fidelity/v0.0.0 (linux/amd64) kubewire/e2e"

// startComparedServers starts the two servers the differential tests
// compare: a fake with the CEL rules, and a kube-apiserver of their own.
// The e2e cluster runs no kube-controller-manager, so the fake runs its
// controllers only when asked to (never here): both are compared without
// them.
func startComparedServers(t *testing.T, name string) (*fake.Server, *harness.Cluster) {
	t.Helper()
	rules, err := cel.New()
	if err != nil {
		t.Fatal(err)
	}
	srv := fake.Start(fake.Options{TLS: true, Rules: rules, Controllers: fake.ControllersManual})
	t.Cleanup(srv.Close)
	return srv, harness.StartForTest(t, harness.Options{Name: name})
}

func TestFidelity(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a kube-apiserver")
	}
	srv, c := startComparedServers(t, "fidelity")

	catalog := fidelityCatalog()
	// The fake does synchronously what kube-apiserver's controllers do
	// in the background, so it gets less time.
	hookVars := startFidelityWebhooks(t)
	fakeTarget := &fidTarget{name: "fake", base: srv.URL(), client: srv.Client(), token: srv.Token(), patience: 2 * time.Second, vars: hookVars}
	realTarget := &fidTarget{name: "kube-apiserver", base: c.URL, client: c.Client(t), token: c.AdminToken, patience: 30 * time.Second, vars: hookVars}
	fakeAnswers := fakeTarget.run(t, catalog)
	realAnswers := realTarget.run(t, catalog)

	var rep fidelityTally
	var report, dump strings.Builder
	for i, st := range catalog {
		if st.wait != nil {
			continue
		}
		f, r := normalize(fakeAnswers[i], st), normalize(realAnswers[i], st)
		line, _ := json.Marshal(map[string]any{"step": st.scenario + "/" + st.name, "request": st.method + " " + st.path, "fake": f, "real": r})
		dump.Write(append(line, '\n'))
		diff := cmp.Diff(r, f)
		same := diff == ""
		rep.add(st, same, f.Code == r.Code, cmp.Equal(withoutManagedFields(r), withoutManagedFields(f)))
		mark := "ok  "
		if !same {
			mark = "DIFF"
		}
		note := ""
		if st.needs != "" {
			note = " (needs " + st.needs + ", not counted)"
		}
		t.Logf("%s %-60s fake %d, kube-apiserver %d%s", mark, st.scenario+"/"+st.name, f.Code, r.Code, note)
		if !same {
			text := fmt.Sprintf("## %s/%s\n%s %s\n(-kube-apiserver +fake)\n%s\n", st.scenario, st.name, st.method, st.path, diff)
			report.WriteString(text)
			if testing.Verbose() {
				t.Log(text)
			}
		}
	}
	t.Log(rep.summary())
	if *fidelityReport != "" {
		if err := os.WriteFile(*fidelityReport, []byte(rep.summary()+"\n\n"+report.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
	if *fidelityDump != "" {
		if err := os.WriteFile(*fidelityDump, []byte(dump.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
	if share := rep.share(); share < fidelityFloor {
		t.Errorf("identical answers %.1f%%, below the floor of %.1f%% reached before", 100*share, 100*fidelityFloor)
	}
}

// fidelityTally counts the compared answers.
type fidelityTally struct {
	counted, identical, sameCode, sameButManaged int
	excluded, excludedIdentical                  int
}

func (r *fidelityTally) add(st *step, identical, sameCode, sameButManaged bool) {
	if st.needs != "" {
		r.excluded++
		if identical {
			r.excludedIdentical++
		}
		return
	}
	r.counted++
	if identical {
		r.identical++
	}
	if sameCode {
		r.sameCode++
	}
	if sameButManaged {
		r.sameButManaged++
	}
}

func (r *fidelityTally) share() float64 {
	if r.counted == 0 {
		return 0
	}
	return float64(r.identical) / float64(r.counted)
}

func (r *fidelityTally) summary() string {
	pct := func(n int) float64 { return 100 * float64(n) / float64(max(r.counted, 1)) }
	verdict := "FAIL"
	if r.share() >= fidelityGoal {
		verdict = "PASS"
	}
	return fmt.Sprintf("fidelity: %d requests compared: %d identical (%.1f%%), %d identical ignoring managedFields (%.1f%%), %d with the same status code (%.1f%%); "+
		"%d more need components the e2e cluster lacks (%d identical), not counted; goal %.0f%% identical: %s",
		r.counted, r.identical, pct(r.identical), r.sameButManaged, pct(r.sameButManaged), r.sameCode, pct(r.sameCode),
		r.excluded, r.excludedIdentical, 100*fidelityGoal, verdict)
}

// fidTarget is one server the catalog runs against.
type fidTarget struct {
	name   string
	base   string
	client *http.Client
	token  string
	// patience bounds each wait step.
	patience time.Duration
	// vars are values the catalog's steps substitute from the start
	// (the webhook server's URL and authority).
	vars map[string]string
}

// answer is what a server answered to one step.
type answer struct {
	code   int
	header http.Header
	body   []byte
	err    error
}

// run sends every step of the catalog in order and returns the answers,
// index for index. Values saved by steps are substituted into later
// ones as ${name}; ${ns} is the step's scenario namespace.
func (ft *fidTarget) run(t *testing.T, catalog []*step) []answer {
	vars := map[string]string{}
	for k, v := range ft.vars {
		vars[k] = v
	}
	out := make([]answer, len(catalog))
	for i, st := range catalog {
		if st.wait != nil {
			if err := ft.poll(t.Context(), st, vars); err != nil {
				// A server that never gets there answers the next steps
				// differently, which the comparison shows.
				t.Logf("%s: %s/%s: %v", ft.name, st.scenario, st.name, err)
			}
			continue
		}
		a := ft.send(t.Context(), st, vars)
		if a.err != nil {
			t.Errorf("%s: %s/%s: %v", ft.name, st.scenario, st.name, a.err)
		}
		out[i] = a
		st.saveFrom(a, vars)
	}
	return out
}

// saveFrom records in vars the values the step saves from its answer.
func (st *step) saveFrom(a answer, vars map[string]string) {
	for name, path := range st.saves {
		var v any
		if json.Unmarshal(a.body, &v) == nil {
			if s, ok := lookupPath(v, path); ok {
				vars[name] = s
			}
		}
	}
}

var varRef = regexp.MustCompile(`\$\{([a-zA-Z0-9_.-]+)\}`)

func substitute(s string, vars map[string]string, ns string) string {
	return varRef.ReplaceAllStringFunc(s, func(m string) string {
		name := m[2 : len(m)-1]
		if name == "ns" {
			return ns
		}
		if v, ok := vars[name]; ok {
			return v
		}
		return m
	})
}

// send sends one step and reads the whole answer (a watch ends with its
// timeoutSeconds).
func (ft *fidTarget) send(ctx context.Context, st *step, vars map[string]string) answer {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var body io.Reader
	if st.body != nil {
		b := st.body
		if !st.binary {
			b = []byte(substitute(string(b), vars, st.ns))
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, st.method, ft.base+substitute(st.path, vars, st.ns), body)
	if err != nil {
		return answer{err: err}
	}
	req.Header.Set("Authorization", "Bearer "+ft.token)
	req.Header.Set("User-Agent", fidelityUserAgent)
	req.Header.Set("Accept", "application/json")
	if st.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range st.headers {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := ft.client.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return answer{code: resp.StatusCode, header: resp.Header, body: b, err: err}
}

// poll repeats a waiting step until its condition holds, for at most
// the target's patience.
func (ft *fidTarget) poll(ctx context.Context, st *step, vars map[string]string) error {
	deadline := time.Now().Add(ft.patience)
	for {
		a := ft.send(ctx, st, vars)
		var v any
		_ = json.Unmarshal(a.body, &v)
		if a.err == nil && st.wait(a.code, v) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("condition not reached in %v; last answer %d %.300s", ft.patience, a.code, a.body)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// lookupPath reads a dotted path ("metadata.uid", "items.0.metadata.name")
// from decoded JSON as a string.
func lookupPath(v any, path string) (string, bool) {
	for _, p := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[p]
		case []any:
			var i int
			if _, err := fmt.Sscan(p, &i); err != nil || i >= len(x) {
				return "", false
			}
			v = x[i]
		default:
			return "", false
		}
	}
	switch x := v.(type) {
	case string:
		return x, true
	case nil:
		return "", false
	default:
		b, _ := json.Marshal(x)
		return string(b), true
	}
}
