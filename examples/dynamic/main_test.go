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
func TestDynamicRuns(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	// A guard against a hang, not a speed bound: the suite runs on loaded machines.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var out bytes.Buffer
	if err := run(ctx, config{namespace: "default", name: "nightly-report", crontabs: 400, trace: true}, &out); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}

// want is the output on the fake server with -crontabs 400. On
// kube-apiserver the CRD is installed first, and the metadata-only read
// is answered in protobuf.
const want = `dynamic: CronTab (stable.example.com/v1) on an embedded fake server
      GET /api
        Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList, application/json
        answer: 200 application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList
      GET /apis
        Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList, application/json
        answer: 200 application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList
  discovery: CronTab is served as crontabs.v1.stable.example.com (namespaced)
      GET /apis/stable.example.com/v1/crontabs?labelSelector=app%3Dcheckout&limit=500
        Accept: application/cbor, application/json
        answer: 200 application/json
  list app=checkout: 50 CronTabs in all namespaces; the first: shop/checkout-backup-00025 "0 */4 * * *", shop/checkout-backup-00049 "0 */4 * * *", shop/checkout-backup-00081 "0 */4 * * *"
      GET /apis/stable.example.com/v1/namespaces/default/crontabs/nightly-report
        Accept: application/cbor, application/json
        answer: 404 application/json
      POST /apis/stable.example.com/v1/namespaces/default/crontabs
        Accept: application/cbor, application/json
        answer: 201 application/json
  create: default/nightly-report, generation 1
      GET /apis/stable.example.com/v1/namespaces/default/crontabs/nightly-report
        Accept: application/cbor, application/json
        answer: 200 application/json
  get: image registry.example.com/shop/reports:2.3.0, replicas 1
      GET /apis/stable.example.com/v1/namespaces/default/crontabs/nightly-report
        Accept: application/cbor, application/json
        answer: 200 application/json
      PUT /apis/stable.example.com/v1/namespaces/default/crontabs/nightly-report
        Accept: application/cbor, application/json
        answer: 200 application/json
  update: replicas 3, generation 2
      PUT /apis/stable.example.com/v1/namespaces/default/crontabs/nightly-report/status
        Accept: application/cbor, application/json
        answer: 200 application/json
  update status: lastScheduleTime 2026-10-01T02:00:00Z, generation still 2
      PATCH /apis/stable.example.com/v1/namespaces/default/crontabs/nightly-report
        Accept: application/cbor, application/json
        answer: 200 application/json
  patch (merge): cronSpec "30 2 * * *"
      PATCH /apis/stable.example.com/v1/namespaces/default/crontabs/nightly-report
        Accept: application/cbor, application/json
        answer: 415 application/json
  patch (strategic): refused, ErrUnsupportedMediaType: custom resources have no merge keys
      GET /apis/stable.example.com/v1/namespaces/default/crontabs/nightly-report
        Accept: application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1, application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1, application/json
        answer: 200 application/json
  metadata only: PartialObjectMetadata default/nightly-report, label app=reports
      DELETE /apis/stable.example.com/v1/namespaces/default/crontabs/nightly-report
        Accept: application/cbor, application/json
        answer: 200 application/json
      GET /apis/stable.example.com/v1/namespaces/default/crontabs/nightly-report
        Accept: application/cbor, application/json
        answer: 404 application/json
  delete: gone: crontabs.stable.example.com "nightly-report" not found
`
