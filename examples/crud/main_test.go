package main

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The example runs to completion against the embedded fake server, and
// prints what the README shows.
func TestCRUDRuns(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	// A guard against a hang, not a speed bound: the suite runs on loaded machines.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var out bytes.Buffer
	if err := run(ctx, "", "default", "web", &out); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}

// want is the output on the fake server (on a real cluster, generations
// and managed fields differ: see the README).
const want = `crud: Deployment default/web on an embedded fake server
create (dry run)       answered web with 2 replicas; not stored: deployments.apps "web" not found
create                 generation 1, replicas 2, labels app=web, images web:1.0.0 log-shipper:3.1.9
create again           ErrAlreadyExists: deployments.apps "web" already exists
update                 generation 2, replicas 3, labels app=web, images web:1.0.0 log-shipper:3.1.9
update (stale copy)    ErrConflict: Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again
update (retried)       generation 2, replicas 3, labels app=web,tier=frontend, images web:1.0.0 log-shipper:3.1.9 (try 2)
patch (merge)          annotations example.com/owner=team-shop
patch (strategic)      generation 4, replicas 3, labels app=web,tier=frontend, images web:1.1.0 log-shipper:3.1.9
patch (JSON patch)     generation 5, replicas 5, labels app=web,tier=frontend, images web:1.1.0 log-shipper:3.1.9
patch (Strict, typo)   refused, 422 Invalid: ...strict decoding error: unknown field "spec.replica"
patch (Warn, typo)     minReadySeconds 10, replicas still 5
                         warning: unknown field "spec.replica"
apply                  generation 7, replicas 4, labels app=web,tier=frontend, images web:1.1.0 log-shipper:3.1.9; env web:LOG_LEVEL=debug
                       managed fields: kubewire-apply-example (Apply)
delete (dry run)       still there: generation 7, replicas 4, labels app=web,tier=frontend, images web:1.1.0 log-shipper:3.1.9
delete                 gone: deployments.apps "web" not found
`
