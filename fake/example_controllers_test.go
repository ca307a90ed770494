package fake_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/kubewire/kubewire/fake"
)

// call sends one request to a fake server and returns the status code
// and the body's first line.
func call(srv *fake.Server, method, path, contentType, body string) (int, string) {
	req, _ := http.NewRequest(method, srv.URL()+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+srv.Token())
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	line, _, _ := strings.Cut(string(b), "\n")
	return resp.StatusCode, line
}

// The garbage collector deletes a dependent once its owner is gone,
// before the owner's DELETE is answered.
func ExampleControllersMode() {
	srv := fake.Start(fake.Options{}) // ControllersBackground
	defer srv.Close()
	cms := "/api/v1/namespaces/default/configmaps"
	code, body := call(srv, "POST", cms, "application/json", `{"metadata":{"name":"owner"}}`)
	uid := body[strings.Index(body, `"uid":"`)+7:][:36]
	call(srv, "POST", cms, "application/json", `{"metadata":{"name":"dep","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"owner","uid":"`+uid+`"}]}}`)
	fmt.Println(code)
	code, _ = call(srv, "DELETE", cms+"/owner", "", "")
	fmt.Println(code)
	code, _ = call(srv, "GET", cms+"/dep", "", "")
	fmt.Println(code)
	// Output:
	// 201
	// 200
	// 404
}

// With the controllers run by hand, a deleted namespace stays
// Terminating until CollectGarbage empties and removes it.
func ExampleServer_CollectGarbage() {
	srv := fake.Start(fake.Options{Controllers: fake.ControllersManual})
	defer srv.Close()
	call(srv, "POST", "/api/v1/namespaces", "application/json", `{"metadata":{"name":"team"}}`)
	call(srv, "DELETE", "/api/v1/namespaces/team", "", "")
	code, _ := call(srv, "GET", "/api/v1/namespaces/team", "", "")
	fmt.Println(code)
	srv.CollectGarbage()
	code, _ = call(srv, "GET", "/api/v1/namespaces/team", "", "")
	fmt.Println(code)
	// Output:
	// 200
	// 404
}

// A fault aimed at one kind of request leaves the others, such as an
// informer's lists and watches, alone.
func ExampleFaults_Add() {
	srv := fake.Start(fake.Options{})
	defer srv.Close()
	remove := srv.Faults().Add(fake.Fault{
		Match: fake.Match{Verbs: []string{"create"}, Resource: "configmaps"},
		Times: 1,
		Code:  http.StatusServiceUnavailable,
	})
	defer remove()
	cms := "/api/v1/namespaces/default/configmaps"
	code, _ := call(srv, "GET", cms, "", "")
	fmt.Println("list:", code)
	code, _ = call(srv, "POST", cms, "application/json", `{"metadata":{"name":"a"}}`)
	fmt.Println("create:", code)
	code, _ = call(srv, "POST", cms, "application/json", `{"metadata":{"name":"a"}}`)
	fmt.Println("create again:", code)
	// Output:
	// list: 200
	// create: 503
	// create again: 201
}

// An admission hook stands for a webhook: this one denies ConfigMaps
// without an owner label, and one that could not be called fails writes.
func ExampleAdmissionHook() {
	srv := fake.Start(fake.Options{Admission: []fake.AdmissionHook{{
		Name:  "owners.example.com",
		Match: fake.Match{Resource: "configmaps", Verbs: []string{"create", "update", "patch"}},
		Admit: func(r *fake.AdmissionRequest) error {
			meta, _ := r.Object["metadata"].(map[string]any)
			if labels, _ := meta["labels"].(map[string]any); labels["owner"] == nil {
				return &fake.AdmissionError{Code: http.StatusForbidden, Message: "an owner label is required"}
			}
			if labels, _ := meta["labels"].(map[string]any); labels["owner"] == "slow" {
				return context.DeadlineExceeded
			}
			return nil
		},
	}}})
	defer srv.Close()
	cms := "/api/v1/namespaces/default/configmaps"
	for _, body := range []string{`{"metadata":{"name":"a"}}`, `{"metadata":{"name":"a","labels":{"owner":"slow"}}}`, `{"metadata":{"name":"a","labels":{"owner":"me"}}}`} {
		code, resp := call(srv, "POST", cms, "application/json", body)
		msg := ""
		if i := strings.Index(resp, `"message":"`); i >= 0 {
			msg, _, _ = strings.Cut(resp[i+11:], `",`)
		}
		fmt.Println(code, msg)
	}
	// Output:
	// 403 admission webhook \"owners.example.com\" denied the request: an owner label is required
	// 500 Internal error occurred: failed calling webhook \"owners.example.com\": context deadline exceeded
	// 201
}

// A program saves its server's state on exit and loads it next time.
func ExampleServer_Snapshot() {
	first := fake.Start(fake.Options{})
	call(first, "POST", "/api/v1/namespaces/default/configmaps", "application/json", `{"metadata":{"name":"kept"},"data":{"k":"v"}}`)
	var saved bytes.Buffer
	if err := first.Snapshot(&saved); err != nil {
		fmt.Println(err)
	}
	first.Close()

	next := fake.Start(fake.Options{})
	defer next.Close()
	if err := next.LoadSnapshot(&saved); err != nil && !errors.Is(err, io.EOF) {
		fmt.Println(err)
	}
	code, _ := call(next, "GET", "/api/v1/namespaces/default/configmaps/kept", "", "")
	fmt.Println(code)
	// Output: 200
}
