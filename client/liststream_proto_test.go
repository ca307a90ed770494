package client

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
	"google.golang.org/protobuf/encoding/protowire"
)

// jsonOf is a typed object's JSON, to compare objects whose Go values
// hold unexported state.
func jsonOf[T Object](t testing.TB, items []T) []string {
	t.Helper()
	out := make([]string, len(items))
	for i, o := range items {
		b, err := codec.EncodeJSON(o)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(b)
	}
	return out
}

// pbOf is each object's protobuf encoding, for objects (fuzzed ones)
// whose JSON may not encode.
func pbOf[T Object](t testing.TB, items []T) []string {
	t.Helper()
	out := make([]string, len(items))
	for i, o := range items {
		b, err := any(o).(codec.ProtobufMarshaler).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(b)
	}
	return out
}

// streamAll runs ListStream and returns what it handed over.
func streamAll[T Object](ctx context.Context, r *Resource[T]) ([]T, metav1.ListMeta, error) {
	var got []T
	meta, err := r.ListStream(ctx, ListOptions{}, func(o T) error {
		got = append(got, o)
		return nil
	})
	return got, meta, err
}

// ListStream hands over the items of kube-apiserver's protobuf list
// answers as List decodes them, with the same list metadata, from one
// unpaged request that asked for protobuf.
func TestListStreamProtobufMatchesList(t *testing.T) {
	for _, fixture := range []string{"lists/pods.pb", "lists/pods-page1.pb", "lists/configmaps.pb"} {
		t.Run(fixture, func(t *testing.T) {
			answer := load(t, fixture)
			c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, answer) })
			ctx := context.Background()
			check := func(wantList any, got []string, meta metav1.ListMeta, wantItems []string, wantMeta metav1.ListMeta) {
				t.Helper()
				if len(wantItems) == 0 {
					t.Fatal("the fixture has no items")
				}
				if diff := cmp.Diff(wantItems, got); diff != "" {
					t.Errorf("items (-List +ListStream):\n%s", diff)
				}
				if diff := cmp.Diff(wantMeta, meta); diff != "" {
					t.Errorf("list metadata (-List +ListStream):\n%s", diff)
				}
			}
			if fixture == "lists/configmaps.pb" {
				res := For[*corev1.ConfigMap](c)
				want, err := res.List(ctx, ListOptions{})
				if err != nil {
					t.Fatal(err)
				}
				got, meta, err := streamAll(ctx, res)
				if err != nil {
					t.Fatal(err)
				}
				check(want, jsonOf(t, got), meta, jsonOf(t, want.Items), want.ListMeta)
			} else {
				res := For[*corev1.Pod](c)
				want, err := res.List(ctx, ListOptions{})
				if err != nil {
					t.Fatal(err)
				}
				got, meta, err := streamAll(ctx, res)
				if err != nil {
					t.Fatal(err)
				}
				check(want, jsonOf(t, got), meta, jsonOf(t, want.Items), want.ListMeta)
			}
			r, _ := rec.last(t)
			if q := r.URL.Query(); q.Has("limit") || q.Has("continue") {
				t.Errorf("ListStream sent %v, want an unpaged list", q)
			}
			if a := r.Header.Get("Accept"); !bytes.HasPrefix([]byte(a), []byte(codec.MediaTypeProtobuf)) {
				t.Errorf("ListStream asked for %q, want protobuf first", a)
			}
		})
	}
}

// configMapsPB is the captured ConfigMap list and its items as List
// decodes them.
func configMapsPB(t testing.TB) (body []byte, want []string, rawEnd int) {
	t.Helper()
	body = load(t, "lists/configmaps.pb").Body
	c, err := New(Config{Host: "http://unused.invalid", QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	list, err := For[*corev1.ConfigMap](c).decodeProtoList(body, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) < 2 {
		t.Fatalf("the fixture has %d items, want several", len(list.Items))
	}
	// The end of the envelope's raw field: what follows (empty content
	// encoding and type) may be cut without the protobuf showing it.
	u, err := codec.DecodeEnvelope(body)
	if err != nil {
		t.Fatal(err)
	}
	rawEnd = bytes.Index(body, u.Raw) + len(u.Raw)
	return body, jsonOf(t, list.Items), rawEnd
}

// A protobuf list cut at any byte is an error, never a short list, and
// what was handed over before the error is a prefix of the list: read
// directly (where a cut between fields after the list message is whole
// protobuf) and over HTTP, where the answer ends before its
// Content-Length.
func TestListStreamProtobufCutAtEveryOffset(t *testing.T) {
	body, want, rawEnd := configMapsPB(t)
	c, err := New(Config{Host: "http://unused.invalid", QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	res := For[*corev1.ConfigMap](c)
	for i := range len(body) {
		var got []*corev1.ConfigMap
		_, err := res.streamProtoList(iotest.HalfReader(bytes.NewReader(body[:i])), -1, nil, func(cm *corev1.ConfigMap) error {
			got = append(got, cm)
			return nil
		})
		if i < rawEnd && err == nil {
			t.Fatalf("cut at %d of %d: no error, %d items", i, len(body), len(got))
		}
		if err == nil && len(got) != len(want) {
			t.Fatalf("cut at %d: no error and %d of %d items", i, len(got), len(want))
		}
		if diff := cmp.Diff(want[:len(got)], jsonOf(t, got)); diff != "" {
			t.Fatalf("cut at %d: items handed over differ (-want +got):\n%s", i, diff)
		}
	}

	cut := 0
	hc, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", codec.MediaTypeProtobuf)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK)
		w.Write(body[:cut])
	})
	ctx := context.Background()
	for cut = range len(body) {
		got, _, err := streamAll(ctx, For[*corev1.ConfigMap](hc))
		if err == nil {
			t.Fatalf("HTTP answer cut at %d of %d: no error, %d items", cut, len(body), len(got))
		}
		if diff := cmp.Diff(want[:len(got)], jsonOf(t, got)); diff != "" {
			t.Fatalf("HTTP answer cut at %d: items handed over differ (-want +got):\n%s", cut, diff)
		}
	}
}

// pbAnswer builds a protobuf answer: magic, then the Unknown's fields.
func pbAnswer(fields ...[]byte) []byte {
	return append([]byte(codec.ProtobufMagic), bytes.Join(fields, nil)...)
}

func pbBytes(num protowire.Number, v []byte) []byte {
	b := protowire.AppendTag(nil, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

func typeMetaPB(apiVersion, kind string) []byte {
	return pbBytes(1, append(pbBytes(1, []byte(apiVersion)), pbBytes(2, []byte(kind))...))
}

// Hostile or broken protobuf answers are clear errors matching
// codec.ErrMalformed (or ErrTooLarge, or the Status they carry), never a
// panic, and hand over nothing that does not belong to the list.
func TestListStreamProtobufBadAnswers(t *testing.T) {
	body, _, _ := configMapsPB(t)
	u, err := codec.DecodeEnvelope(body)
	if err != nil {
		t.Fatal(err)
	}
	list := u.Raw
	st := metav1.Status{Status: "Failure", Message: "etcd is sad", Reason: "InternalError", Code: 500}
	stBytes, err := st.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	huge := protowire.AppendTag(nil, 2, protowire.BytesType)
	huge = protowire.AppendVarint(huge, 1<<40)
	for _, tc := range []struct {
		name    string
		body    []byte
		want    error
		wantMsg string
	}{
		{"JSON under a protobuf type", []byte(`{"kind":"ConfigMapList","items":[]}`), codec.ErrMalformed, "JSON"},
		{"empty", nil, codec.ErrMalformed, ""},
		{"magic only", pbAnswer(), codec.ErrMalformed, "no list"},
		{"another kind", pbAnswer(typeMetaPB("v1", "PodList"), pbBytes(2, list)), codec.ErrMalformed, "PodList"},
		{"no kind", pbAnswer(pbBytes(2, list)), codec.ErrMalformed, "no kind"},
		{"a Status", pbAnswer(typeMetaPB("v1", "Status"), pbBytes(2, stBytes)), nil, "etcd is sad"},
		{"content encoding", pbAnswer(typeMetaPB("v1", "ConfigMapList"), pbBytes(2, list), pbBytes(3, []byte("gzip"))), codec.ErrMalformed, "encoding"},
		{"content type", pbAnswer(typeMetaPB("v1", "ConfigMapList"), pbBytes(2, list), pbBytes(4, []byte("application/json"))), codec.ErrMalformed, "type"},
		{"two lists", pbAnswer(typeMetaPB("v1", "ConfigMapList"), pbBytes(2, list), pbBytes(2, list)), codec.ErrMalformed, "after its list"},
		{"item claims 1 TiB", pbAnswer(typeMetaPB("v1", "ConfigMapList"), pbBytes(2, huge)), codec.ErrTooLarge, ""},
		{"list claims 1 TiB", pbAnswer(typeMetaPB("v1", "ConfigMapList"), huge), codec.ErrTooLarge, ""},
		{"varint too long", pbAnswer(typeMetaPB("v1", "ConfigMapList"), bytes.Repeat([]byte{0xff}, 11)), codec.ErrMalformed, ""},
		{"group field", pbAnswer(typeMetaPB("v1", "ConfigMapList"), pbBytes(2, protowire.AppendTag(nil, 7, protowire.StartGroupType))), codec.ErrMalformed, ""},
		{"list is a varint", pbAnswer(typeMetaPB("v1", "ConfigMapList"), protowire.AppendVarint(protowire.AppendTag(nil, 2, protowire.VarintType), 0)), codec.ErrMalformed, "wire type"},
		{"item is a varint", pbAnswer(typeMetaPB("v1", "ConfigMapList"), pbBytes(2, protowire.AppendVarint(protowire.AppendTag(nil, 2, protowire.VarintType), 5))), codec.ErrMalformed, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", codec.MediaTypeProtobuf)
				w.Write(tc.body)
			})
			got, _, err := streamAll(context.Background(), For[*corev1.ConfigMap](c))
			if err == nil {
				t.Fatalf("no error, %d items", len(got))
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("got %v, want an error matching %v", err, tc.want)
			}
			if !bytes.Contains([]byte(err.Error()), []byte(tc.wantMsg)) {
				t.Errorf("got %v, want it to say %q", err, tc.wantMsg)
			}
			if tc.name == "a Status" {
				var se *codec.StatusError
				if !errors.As(err, &se) || se.Status.Code != 500 {
					t.Errorf("got %v, want the Status as a *codec.StatusError", err)
				}
			}
			// The envelope's fields after the list come after its items:
			// the caller discards what it was handed on an error.
			if after := map[string]bool{"two lists": true, "content encoding": true, "content type": true}; !after[tc.name] && len(got) > 0 {
				t.Errorf("%d items handed over from a bad answer", len(got))
			}
		})
	}
	// Without a bound, a claimed length is not allocated: the reader
	// grows with the bytes that come, and the answer ends first.
	c, err := New(Config{Host: "http://unused.invalid", QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		body []byte
		want error
	}{
		{pbAnswer(typeMetaPB("v1", "ConfigMapList"), pbBytes(2, huge)), codec.ErrMalformed}, // past the list's end
		{pbAnswer(typeMetaPB("v1", "ConfigMapList"), huge), io.ErrUnexpectedEOF},
	} {
		_, err := For[*corev1.ConfigMap](c).streamProtoList(bytes.NewReader(tc.body), -1, nil, func(*corev1.ConfigMap) error { return nil })
		if !errors.Is(err, tc.want) {
			t.Errorf("a 1 TiB claim with no bound: got %v, want an error matching %v", err, tc.want)
		}
	}
}

// A protobuf list over Config.MaxResponseBytes fails with codec.ErrTooLarge
// as soon as the list's length says so, before any item is handed over;
// an error from the callback ends the read.
func TestListStreamProtobufBounds(t *testing.T) {
	body, _, _ := configMapsPB(t)
	serveBody := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", codec.MediaTypeProtobuf)
		w.Write(body)
	}
	ctx := context.Background()
	c, _ := newServerConfig(t, Config{QPS: -1, MaxResponseBytes: int64(len(body) - 10)}, serveBody)
	got, _, err := streamAll(ctx, For[*corev1.ConfigMap](c))
	if !errors.Is(err, codec.ErrTooLarge) || len(got) != 0 {
		t.Errorf("got %v after %d items, want an error matching codec.ErrTooLarge before any", err, len(got))
	}
	c, _ = newServerConfig(t, Config{QPS: -1, MaxResponseBytes: int64(len(body))}, serveBody)
	if _, _, err := streamAll(ctx, For[*corev1.ConfigMap](c)); err != nil {
		t.Errorf("a list of exactly MaxResponseBytes: %v", err)
	}
	stop := errors.New("stop")
	calls := 0
	_, err = For[*corev1.ConfigMap](c).ListStream(ctx, ListOptions{}, func(*corev1.ConfigMap) error {
		calls++
		return stop
	})
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("got %v after %d calls, want the callback's error after 1", err, calls)
	}
}

// Against the fake server over real HTTP: 1,000 ConfigMaps stream as
// protobuf, each object owning its bytes once the read buffer has been
// reused many times; after a 406 to the protobuf Accept the same call
// reads JSON, and the resource stays on JSON.
func TestListStreamProtobufFake(t *testing.T) {
	srv, c, rec := startFakeWire(t, wireOptions{})
	seedConfigMaps(t, srv, 1000)
	ctx := context.Background()
	cms := For[*corev1.ConfigMap](c).Namespace("default")
	want, err := cms.List(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Items) != 1000 {
		t.Fatalf("List returned %d items, want 1000", len(want.Items))
	}
	got, meta, err := streamAll(ctx, cms)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(jsonOf(t, want.Items), jsonOf(t, got)); diff != "" {
		t.Errorf("items (-List +ListStream):\n%s", diff)
	}
	if meta.ResourceVersion == "" || meta.ResourceVersion != want.ResourceVersion {
		t.Errorf("resourceVersion %q, want List's %q", meta.ResourceVersion, want.ResourceVersion)
	}
	if ct := rec.lastResponseType(); ct != codec.MediaTypeProtobuf {
		t.Errorf("the answer was %q, want protobuf", ct)
	}

	srv.Faults().NotAcceptableNext(1)
	got, _, err = streamAll(ctx, cms)
	if err != nil {
		t.Fatalf("after a 406: %v", err)
	}
	if diff := cmp.Diff(jsonOf(t, want.Items), jsonOf(t, got)); diff != "" {
		t.Errorf("items read as JSON after a 406 (-List +ListStream):\n%s", diff)
	}
	if _, _, err := streamAll(ctx, cms); err != nil {
		t.Fatal(err)
	}
	if r, _ := rec.last(t); r.Header.Get("Accept") != codec.MediaTypeJSON {
		t.Errorf("after a 406 the next list asked for %q, want JSON only", r.Header.Get("Accept"))
	}
}

// FuzzProtoListStream: whatever the bytes, the streaming reader does not
// panic, hands over the same items whatever the reads' sizes, and when it
// accepts an answer, List accepts it too with the same items and metadata.
func FuzzProtoListStream(f *testing.F) {
	body, _, _ := configMapsPB(f)
	f.Add(body)
	u, err := codec.DecodeEnvelope(body)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(pbAnswer(typeMetaPB("v1", "ConfigMapList"), pbBytes(2, u.Raw)))
	f.Add(pbAnswer(typeMetaPB("v1", "ConfigMapList"), pbBytes(2, nil)))
	f.Add(pbAnswer(typeMetaPB("v1", "Status"), pbBytes(2, []byte{0x1a, 0x01, 'x'})))
	f.Add(pbAnswer(typeMetaPB("v2", "ConfigMapList"), pbBytes(1, pbBytes(2, []byte("ConfigMapList"))), pbBytes(2, u.Raw)))
	c, err := New(Config{Host: "http://unused.invalid", QPS: -1})
	if err != nil {
		f.Fatal(err)
	}
	res := For[*corev1.ConfigMap](c)
	f.Fuzz(func(t *testing.T, b []byte) {
		read := func(r io.Reader) ([]string, metav1.ListMeta, error) {
			var got []*corev1.ConfigMap
			meta, err := res.streamProtoList(r, int64(len(b)), nil, func(cm *corev1.ConfigMap) error {
				got = append(got, cm)
				return nil
			})
			return pbOf(t, got), meta, err
		}
		items, meta, err := read(bytes.NewReader(b))
		items1, meta1, err1 := read(iotest.OneByteReader(bytes.NewReader(b)))
		// The messages may show more or fewer of the bytes read.
		if (err == nil) != (err1 == nil) || !cmp.Equal(items, items1) || !cmp.Equal(meta, meta1) {
			t.Fatalf("one-byte reads differ: %v / %v, %d / %d items", err, err1, len(items), len(items1))
		}
		if err != nil {
			return
		}
		list, lerr := res.decodeProtoList(b, nil)
		if lerr == nil {
			lerr = res.checkKind(list.APIVersion, list.Kind, true)
		}
		if lerr != nil {
			t.Fatalf("the stream accepted %d items that List refuses: %v", len(items), lerr)
		}
		if diff := cmp.Diff(pbOf(t, list.Items), items); diff != "" {
			t.Fatalf("items (-List +stream):\n%s", diff)
		}
		if diff := cmp.Diff(list.ListMeta, meta); diff != "" {
			t.Fatalf("list metadata (-List +stream):\n%s", diff)
		}
	})
}
