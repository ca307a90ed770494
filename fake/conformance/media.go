package conformance

import (
	"net/http"
	"net/url"
	"strings"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
)

func mediaScenarios() []scenario {
	return []scenario{
		{"Table", func(c *client) {
			c.seed(2)
			r := c.expect(c.do(req{method: "GET", path: c.listPath(url.Values{"labelSelector": {c.setSelector()}}), accept: codec.AcceptTable}), http.StatusOK).obj(c.t)
			if field(r, "kind") != "Table" || field(r, "apiVersion") != "meta.k8s.io/v1" {
				c.t.Fatalf("kind %s/%s", field(r, "apiVersion"), field(r, "kind"))
			}
			if !strings.Contains(field(r, "columnDefinitions"), `"name":"Name"`) {
				c.t.Errorf("columns %s", field(r, "columnDefinitions"))
			}
			rows, _ := r["rows"].([]any)
			if len(rows) != 2 {
				c.t.Fatalf("%d rows, want 2", len(rows))
			}
			if k := field(rows[0].(map[string]any), "object", "kind"); k != "PartialObjectMetadata" {
				c.t.Errorf("row object kind %q", k)
			}
		}},
		{"PartialObjectMetadataList", func(c *client) {
			names := c.seed(2)
			q := url.Values{"labelSelector": {c.setSelector()}}
			j := c.expect(c.do(req{method: "GET", path: c.listPath(q), accept: codec.AcceptFor(false, codec.AsPartialObjectMetadataList)}), http.StatusOK).obj(c.t)
			if field(j, "kind") != "PartialObjectMetadataList" || strings.Join(itemNames(j), ",") != strings.Join(names, ",") {
				c.t.Errorf("JSON: kind %s items %v", field(j, "kind"), itemNames(j))
			}
			p := c.expect(c.do(req{method: "GET", path: c.listPath(q), accept: codec.AcceptFor(true, codec.AsPartialObjectMetadataList)}), http.StatusOK)
			var l metav1.PartialObjectMetadataList
			if err := codec.DecodeProtobuf(p.body, &l); err != nil {
				c.t.Fatal(err)
			}
			if len(l.Items) != 2 || l.Items[0].Name != names[0] || l.Kind != "PartialObjectMetadataList" {
				c.t.Errorf("protobuf list %+v", l)
			}
		}},
		{"YAML", func(c *client) {
			name := c.name("y")
			c.createCM(name, nil, map[string]string{"k": "v"})
			r := c.expect(c.do(req{method: "GET", path: c.cmPath(name), accept: "application/yaml"}), http.StatusOK)
			if r.contentType() != "application/yaml" || !strings.Contains(string(r.body), "kind: ConfigMap") {
				c.t.Errorf("%s:\n%s", r.contentType(), r.body)
			}
		}},
		{"NotAcceptable", func(c *client) {
			r := c.do(req{method: "GET", path: c.cmPath(""), accept: "text/html"})
			c.statusOf(r, http.StatusNotAcceptable, "NotAcceptable")
			// A Status in no media type the client accepts is indented JSON.
			if !strings.HasPrefix(string(r.body), "{\n  \"kind\": \"Status\"") {
				c.t.Errorf("body %q, want indented JSON", head(string(r.body)))
			}
		}},
		{"Gzip", func(c *client) {
			big := strings.Repeat("x", 64<<10)
			for i := range 3 {
				c.createCM(c.name("g"+string(rune('a'+i))), map[string]string{"set": strings.TrimSuffix(c.prefix, "-")}, map[string]string{"big": big})
			}
			hr := c.newRequest(req{method: "GET", path: c.listPath(url.Values{"labelSelector": {c.setSelector()}})})
			hr.Header.Set("Accept-Encoding", "gzip")
			resp, err := c.target.Client.Do(hr)
			if err != nil {
				c.t.Fatal(err)
			}
			resp.Body.Close()
			if resp.Header.Get("Content-Encoding") != "gzip" {
				c.t.Errorf("Content-Encoding %q for a %d KiB list", resp.Header.Get("Content-Encoding"), 3*64)
			}
		}},
		{"YAMLRequestBody", func(c *client) {
			name := c.name("y")
			body := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n  k: v\n"
			r := c.expect(c.do(req{method: "POST", path: c.cmPath(""), contentType: "application/yaml", accept: "application/yaml", body: body}), http.StatusCreated)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: c.cmPath(name)}) })
			if r.contentType() != "application/yaml" || !strings.Contains(string(r.body), "name: "+name) || !strings.Contains(string(r.body), "kind: ConfigMap") {
				c.t.Errorf("%s:\n%s", r.contentType(), r.body)
			}
			got := c.expect(c.do(req{method: "GET", path: c.cmPath(name)}), http.StatusOK).obj(c.t)
			if field(got, "data", "k") != "v" {
				c.t.Errorf("stored data %s", field(got, "data"))
			}
		}},
		{"ProtobufRequestBody", func(c *client) {
			name := c.name("p")
			cm := &corev1.ConfigMap{Data: map[string]string{"k": "v"}}
			cm.Name = name
			body, err := codec.EncodeProtobuf("v1", "ConfigMap", cm)
			if err != nil {
				c.t.Fatal(err)
			}
			r := c.expect(c.do(req{method: "POST", path: c.cmPath(""), contentType: codec.MediaTypeProtobuf, accept: "application/json", body: body}), http.StatusCreated)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: c.cmPath(name)}) })
			if !strings.HasPrefix(r.contentType(), "application/json") {
				c.t.Errorf("answer in %s, want JSON", r.contentType())
			}
			if got := r.obj(c.t); field(got, "metadata", "name") != name || field(got, "data", "k") != "v" || field(got, "kind") != "ConfigMap" {
				c.t.Errorf("answer %s", r.body)
			}
			// A body without the protobuf envelope's magic number is refused.
			bad := c.do(req{method: "POST", path: c.cmPath(""), contentType: codec.MediaTypeProtobuf, accept: "application/json", body: body[4:]})
			if bad.code/100 != 4 {
				c.t.Errorf("a body without the magic number answered %d", bad.code)
			}
		}},
		{"CustomResourceDefaultTable", func(c *client) {
			name := c.createWidget(nil)
			for _, path := range []string{c.target.Widgets, c.target.Widgets + "/" + name} {
				r := c.expect(c.do(req{method: "GET", path: path, accept: codec.AcceptTable}), http.StatusOK).obj(c.t)
				if field(r, "kind") != "Table" {
					c.t.Fatalf("%s: kind %s", path, field(r, "kind"))
				}
				cols, _ := r["columnDefinitions"].([]any)
				var names []string
				for _, col := range cols {
					m, _ := col.(map[string]any)
					names = append(names, field(m, "name")+":"+field(m, "type"))
				}
				if strings.Join(names, ",") != "Name:string,Age:date" {
					c.t.Errorf("%s: columns %v", path, names)
				}
			}
		}},
		{"SmallResponsesAreNotCompressed", func(c *client) {
			name := c.name("s")
			c.createCM(name, nil, map[string]string{"k": "v"})
			hr := c.newRequest(req{method: "GET", path: c.cmPath(name)})
			hr.Header.Set("Accept-Encoding", "gzip")
			resp, err := c.target.Client.Do(hr)
			if err != nil {
				c.t.Fatal(err)
			}
			resp.Body.Close()
			if ce := resp.Header.Get("Content-Encoding"); ce != "" {
				c.t.Errorf("Content-Encoding %q for a small object", ce)
			}
		}},
		{"JSONBodyEndingsAndPretty", func(c *client) {
			// kube-apiserver ends compact JSON with a newline and indents
			// by two spaces, without one, when asked (pretty=true, or a
			// curl, Wget or browser User-Agent unless pretty says no).
			// /version is always indented.
			name := c.name("p")
			c.createCM(name, nil, map[string]string{"k": "v"})
			const indented = "{\n  \"kind\": "
			for _, tt := range []struct {
				what, path, userAgent string
				pretty                bool
			}{
				{"object", c.cmPath(name), "", false},
				{"object pretty=true", c.cmPath(name) + "?pretty=true", "", true},
				{"object from curl", c.cmPath(name), "curl/8.5.0", true},
				{"object from curl, pretty=false", c.cmPath(name) + "?pretty=false", "curl/8.5.0", false},
				{"list pretty=1", c.cmPath("") + "?pretty=1&limit=1", "", true},
				{"Status", c.cmPath(c.name("none")), "", false},
				{"Status pretty", c.cmPath(c.name("none")) + "?pretty=true", "", true},
				{"discovery", "/api/v1", "", false},
				{"discovery pretty", "/api/v1?pretty=true", "", true},
			} {
				hdr := http.Header{}
				if tt.userAgent != "" {
					hdr.Set("User-Agent", tt.userAgent)
				}
				r := c.do(req{method: "GET", path: tt.path, header: hdr})
				body := string(r.body)
				if tt.pretty && (!strings.HasPrefix(body, indented) || strings.HasSuffix(body, "\n")) {
					c.t.Errorf("%s: want two-space indentation and no final newline, got %q...%q", tt.what, head(body), tail(body))
				}
				if !tt.pretty && (strings.Contains(body, "\n  ") || !strings.HasSuffix(body, "}\n")) {
					c.t.Errorf("%s: want compact JSON ending with a newline, got %q...%q", tt.what, head(body), tail(body))
				}
			}
			v := string(c.expect(c.do(req{method: "GET", path: "/version"}), http.StatusOK).body)
			if !strings.HasPrefix(v, "{\n  \"major\": ") || !strings.HasSuffix(v, "\"\n}") {
				c.t.Errorf("/version %q...%q, want it indented", head(v), tail(v))
			}
		}},
		{"TableIncludeObject", func(c *client) {
			// includeObject chooses what a Table's rows carry; another
			// value is a 400 kube-apiserver writes in indented JSON
			// whatever the request asks.
			c.seed(1)
			q := url.Values{"labelSelector": {c.setSelector()}}
			for include, want := range map[string]string{"None": "", "Metadata": "PartialObjectMetadata", "Object": "ConfigMap"} {
				q.Set("includeObject", include)
				r := c.expect(c.do(req{method: "GET", path: c.listPath(q), accept: codec.AcceptTable}), http.StatusOK).obj(c.t)
				rows, _ := r["rows"].([]any)
				if len(rows) != 1 {
					c.t.Fatalf("includeObject=%s: %d rows", include, len(rows))
				}
				if got := field(rows[0].(map[string]any), "object", "kind"); got != want {
					c.t.Errorf("includeObject=%s: row object kind %q, want %q", include, got, want)
				}
			}
			q.Set("includeObject", "Everything")
			// The Status comes in what the client accepts, else in JSON
			// indented (as every Status kube-apiserver cannot negotiate).
			for _, tt := range []struct {
				accept   string
				indented bool
			}{
				{codec.AcceptTable, false},
				{"application/json;as=Table;g=meta.k8s.io;v=v1", true},
				{"application/yaml;as=Table;g=meta.k8s.io;v=v1", true},
			} {
				r := c.do(req{method: "GET", path: c.listPath(q), accept: tt.accept})
				st := c.statusOf(r, http.StatusBadRequest, "BadRequest")
				if want := `Unable to convert to Table as requested: includeObject: Invalid value: "Everything": must be 'Metadata', 'Object', 'None', or empty`; field(st, "message") != want {
					c.t.Errorf("message %q", field(st, "message"))
				}
				if got := strings.HasPrefix(string(r.body), "{\n  \"kind\": \"Status\""); got != tt.indented || r.contentType() != "application/json" {
					c.t.Errorf("Accept %s: %s body %q, want indented %v", tt.accept, r.contentType(), head(string(r.body)), tt.indented)
				}
			}
		}},
		{"TableAndMetadataInYAML", func(c *client) {
			// Tables and PartialObjectMetadata are served in YAML too.
			names := c.seed(1)
			q := url.Values{"labelSelector": {c.setSelector()}}
			for _, tt := range []struct{ path, as, kind string }{
				{c.listPath(q), "Table", "Table"},
				{c.cmPath(names[0]), "Table", "Table"},
				{c.listPath(q), "PartialObjectMetadataList", "PartialObjectMetadataList"},
				{c.cmPath(names[0]), "PartialObjectMetadata", "PartialObjectMetadata"},
			} {
				r := c.expect(c.do(req{method: "GET", path: tt.path, accept: "application/yaml;as=" + tt.as + ";g=meta.k8s.io;v=v1"}), http.StatusOK)
				if r.contentType() != "application/yaml" || !strings.Contains(string(r.body), "\nkind: "+tt.kind+"\n") || !strings.Contains(string(r.body), names[0]) {
					c.t.Errorf("%s as %s: %s\n%s", tt.path, tt.as, r.contentType(), head(string(r.body)))
				}
			}
		}},
		{"PartialObjectMetadataVersions", func(c *client) {
			// Metadata is served in the meta.k8s.io version asked for, and
			// an empty metadata list has null items.
			names := c.seed(1)
			q := url.Values{"labelSelector": {c.setSelector()}}
			for _, v := range []string{"v1", "v1beta1"} {
				l := c.expect(c.do(req{method: "GET", path: c.listPath(q), accept: "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=" + v}), http.StatusOK).obj(c.t)
				items, _ := l["items"].([]any)
				if field(l, "apiVersion") != "meta.k8s.io/"+v || len(items) != 1 || field(items[0].(map[string]any), "apiVersion") != "meta.k8s.io/"+v {
					c.t.Errorf("%s list: apiVersion %s, items %v", v, field(l, "apiVersion"), items)
				}
				o := c.expect(c.do(req{method: "GET", path: c.cmPath(names[0]), accept: "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=" + v}), http.StatusOK).obj(c.t)
				if field(o, "apiVersion") != "meta.k8s.io/"+v || field(o, "kind") != "PartialObjectMetadata" {
					c.t.Errorf("%s object: %s %s", v, field(o, "apiVersion"), field(o, "kind"))
				}
				// A watch's events too (from "0": the state first).
				wq := url.Values{"labelSelector": {c.setSelector()}, "resourceVersion": {"0"}, "timeoutSeconds": {"1"}}
				ev := c.nextRaw(c.rawWatchAs(wq, "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v="+v))
				if ev.Type != "ADDED" || field(ev.Object, "apiVersion") != "meta.k8s.io/"+v || field(ev.Object, "kind") != "PartialObjectMetadata" {
					c.t.Errorf("%s watch event: %s %s %s", v, ev.Type, field(ev.Object, "apiVersion"), field(ev.Object, "kind"))
				}
			}
			q.Set("labelSelector", c.setSelector()+",none=x")
			r := c.expect(c.do(req{method: "GET", path: c.listPath(q), accept: "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"}), http.StatusOK).obj(c.t)
			if items, ok := r["items"]; !ok || items != nil {
				c.t.Errorf("empty metadata list items %v (present %v), want null", items, ok)
			}
		}},
		{"CustomResourceListKeyOrder", func(c *client) {
			// A custom resource list is an unstructured map on
			// kube-apiserver: its keys come sorted.
			name := c.createWidget(nil)
			body := string(c.expect(c.do(req{method: "GET", path: c.target.Widgets + "?fieldSelector=metadata.name%3D" + name}), http.StatusOK).body)
			if !strings.HasPrefix(body, `{"apiVersion":"example.com/v1","items":[{`) || !strings.Contains(body, `}],"kind":"WidgetList","metadata":{"continue":"","resourceVersion":"`) {
				c.t.Errorf("list body %s", body)
			}
		}},
		{"CustomResourceIsJSONOnly", func(c *client) {
			name := c.createWidget(map[string]any{"color": "blue"})
			r := c.expect(c.do(req{method: "GET", path: c.target.Widgets + "/" + name, accept: codec.AcceptProtobufOrJSON}), http.StatusOK)
			if !strings.HasPrefix(r.contentType(), "application/json") || field(r.obj(c.t), "spec", "color") != "blue" {
				c.t.Errorf("%s: %s", r.contentType(), r.body)
			}
			r = c.expect(c.do(req{method: "GET", path: c.target.Widgets + "/" + name, accept: codec.MediaTypeProtobuf}), http.StatusNotAcceptable)
			st, err := codec.DecodeStatus(r.contentType(), r.body)
			if r.contentType() != codec.MediaTypeProtobuf || err != nil || st.Reason != "NotAcceptable" {
				c.t.Errorf("406 body %s %+v %v", r.contentType(), st, err)
			}
		}},
	}
}

func head(s string) string { return s[:min(len(s), 24)] }

func tail(s string) string { return s[max(0, len(s)-8):] }
