package client

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/codec"
)

// widgetPage is kube-apiserver's custom resource list (metadata after
// the items) made a page: its continue token set.
func widgetPage(t *testing.T, token string) []byte {
	body := load(t, "lists/widgets.json").Body
	page := bytes.Replace(body, []byte(`"continue": ""`), []byte(`"continue": "`+token+`"`), 1)
	if bytes.Equal(page, body) {
		t.Fatal("the widgets fixture has no empty continue token to set")
	}
	return page
}

// The hint is the token List decodes, read from where kube-apiserver
// writes it: before the items (built-ins, JSON and protobuf) and after
// them (custom resources).
func TestContinueHintMatchesDecodedToken(t *testing.T) {
	json := codec.MediaType{Type: "application", Subtype: "json"}
	for _, name := range []string{"lists/pods-page1.json", "lists/pods-page2.json", "lists/pods-page1.pb", "lists/pods.json", "lists/pods.pb", "lists/widgets.json"} {
		fx := load(t, name)
		mt, err := codec.ParseMediaType(fx.ContentType())
		if err != nil {
			t.Fatal(err)
		}
		c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, fx) })
		var l interface{ GetContinue() string }
		if name == "lists/widgets.json" {
			l, err = Dynamic(c, GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}).List(context.Background(), ListOptions{})
		} else {
			l, err = For[*corev1.Pod](c).List(context.Background(), ListOptions{})
		}
		if err != nil {
			t.Fatal(name, err)
		}
		if got := continueHint(mt, fx.Body); got != l.GetContinue() {
			t.Errorf("%s: hint %q, decoded token %q", name, got, l.GetContinue())
		}
	}
	if got := continueHint(json, widgetPage(t, "abc.def")); got != "abc.def" {
		t.Errorf("custom resource page: hint %q, want abc.def", got)
	}
	// What is not the expected layout gives no hint, and no panic.
	for _, body := range []string{
		``, `{`, `]`, `[]`, `{"items":[]`, `{"items":[] , "metadata":{"continue":"x"`, `{"items":[],"metadata":{"continue":7}}`,
		`{"items":[{"metadata":{"continue":"item"}}]}`, `{"items":["]"],"metadata":{"selfLink":"]","continue":"x"}}`,
		`{"metadata":{"continue":"x"`, `{"metadata":"x"}`, `null`,
	} {
		if got := continueHint(json, []byte(body)); got != "" {
			t.Errorf("hint of %q = %q, want none", body, got)
		}
	}
	if got := continueHint(codec.MediaType{Type: "application", Subtype: "vnd.kubernetes.protobuf"}, []byte("k8s\x00\x0a")); got != "" {
		t.Errorf("truncated protobuf: hint %q", got)
	}
}

// List calls BeforeDecode with the hint before decoding; its error is
// List's, and nothing is decoded.
func TestListBeforeDecode(t *testing.T) {
	page := widgetPage(t, "tok-2")
	c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(page)
	})
	widgets := Dynamic(c, GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"})
	var hints []string
	l, err := widgets.List(context.Background(), ListOptions{Limit: 1, BeforeDecode: func(h string) error {
		hints = append(hints, h)
		return nil
	}})
	if err != nil || len(hints) != 1 || hints[0] != "tok-2" || l.Continue != "tok-2" || len(l.Items) == 0 {
		t.Fatalf("hints %q, list %v, err %v", hints, l, err)
	}
	stop := errors.New("stop")
	l2, err := widgets.List(context.Background(), ListOptions{BeforeDecode: func(string) error { return stop }})
	if !errors.Is(err, stop) || l2 != nil {
		t.Fatalf("List = %v, %v; want the hook's error and no list", l2, err)
	}
}

// An error answer (here an expired continue token) does not reach
// BeforeDecode.
func TestListBeforeDecodeNotOnErrors(t *testing.T) {
	fx := load(t, "errors/expired-continue.json")
	c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, fx) })
	called := false
	_, err := For[*corev1.Pod](c).List(context.Background(), ListOptions{BeforeDecode: func(string) error { called = true; return nil }})
	if !errors.Is(err, ErrExpired) || called {
		t.Fatalf("err %v, hook called %v", err, called)
	}
}
