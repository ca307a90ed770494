package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/kubewire/kubewire/api/builtin"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
)

// normalized is an answer with what legitimately differs between two
// servers replaced by placeholders.
type normalized struct {
	Code   int
	Header map[string][]string // Content-Type, Warning, Retry-After
	Body   any                 // decoded JSON (YAML and protobuf converted), or text
}

// comparedHeaders are the response headers the check compares.
var comparedHeaders = []string{"Content-Type", "Warning", "Retry-After"}

func normalize(a answer, st *step) normalized {
	n := normalized{Code: a.code, Header: map[string][]string{}}
	if a.err != nil {
		n.Body = "transport error: " + a.err.Error()
		return n
	}
	for _, h := range comparedHeaders {
		if v := a.header.Values(h); len(v) > 0 {
			n.Header[h] = v
		}
	}
	if st.codeOnly {
		return n
	}
	ct := a.header.Get("Content-Type")
	mt, _ := codec.ParseMediaType(ct)
	switch {
	case st.stream:
		n.Body = decodeStream(a.body)
		scrubStreamTables(n.Body)
	case mt.IsProtobuf():
		n.Body = decodeProtobufBody(a.body)
	case mt.IsYAML():
		j, err := codec.YAMLToJSON(a.body)
		if err != nil {
			n.Body = "bad YAML: " + string(a.body)
			break
		}
		n.Body = decodeJSONValue(j)
	case mt.IsJSON():
		n.Body = decodeJSONValue(a.body)
	default:
		n.Body = string(a.body)
	}
	n.Body = scrub(n.Body, "")
	sortCauses(n.Body)
	return n
}

// sortCauses puts the causes of an Invalid Status with several causes in
// order of field and message and rebuilds its message from them:
// kube-apiserver lists the errors of sibling fields of a custom resource
// in no fixed order (it walks a Go map).
func sortCauses(body any) {
	st, ok := body.(map[string]any)
	if !ok || st["kind"] != "Status" {
		return
	}
	if st["reason"] == "Conflict" {
		// Apply conflicts come per manager in no fixed order.
		details, _ := st["details"].(map[string]any)
		causes, _ := details["causes"].([]any)
		slices.SortStableFunc(causes, func(a, b any) int {
			am, _ := a.(map[string]any)
			bm, _ := b.(map[string]any)
			return strings.Compare(fmt.Sprint(am["message"], am["field"]), fmt.Sprint(bm["message"], bm["field"]))
		})
		return
	}
	if st["reason"] != "Invalid" {
		return
	}
	details, _ := st["details"].(map[string]any)
	causes, _ := details["causes"].([]any)
	msg, _ := st["message"].(string)
	prefix, _, found := strings.Cut(msg, " is invalid: [")
	if len(causes) < 2 || !found {
		return
	}
	key := func(c any) string {
		m, _ := c.(map[string]any)
		f, _ := m["field"].(string)
		t, _ := m["message"].(string)
		return f + ": " + t
	}
	slices.SortStableFunc(causes, func(a, b any) int { return strings.Compare(key(a), key(b)) })
	parts := make([]string, len(causes))
	for i, c := range causes {
		parts[i] = key(c)
	}
	st["message"] = prefix + " is invalid: [" + strings.Join(parts, ", ") + "]"
}

func decodeJSONValue(b []byte) any {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return "bad JSON: " + string(b)
	}
	return v
}

// decodeStream decodes a JSON watch stream into its list of events.
func decodeStream(b []byte) any {
	var events []any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
			events = append(events, decodeJSONValue(line))
		}
	}
	return events
}

// decodeProtobufBody decodes an enveloped protobuf body into the built-in
// type its envelope names and returns it as decoded JSON, so that it is
// compared like a JSON answer.
func decodeProtobufBody(b []byte) any {
	u, err := codec.DecodeEnvelope(b)
	if err != nil {
		return "bad protobuf: " + err.Error()
	}
	apiVersion, kind := u.TypeMeta.APIVersion, u.TypeMeta.Kind
	var obj any
	switch {
	case kind == "Status":
		obj = new(metav1.Status)
	default:
		var ok bool
		if obj, ok = builtin.New(apiVersion, kind); !ok {
			if obj, ok = builtin.NewList(apiVersion, kind); !ok {
				return "protobuf of unknown kind " + apiVersion + " " + kind
			}
		}
	}
	pu, ok := obj.(codec.ProtobufUnmarshaler)
	if !ok {
		return "protobuf of undecodable kind " + apiVersion + " " + kind
	}
	if err := codec.DecodeProtobuf(b, pu); err != nil {
		return "bad protobuf " + kind + ": " + err.Error()
	}
	j, err := json.Marshal(obj)
	if err != nil {
		return "protobuf re-encode: " + err.Error()
	}
	return map[string]any{"protobuf": decodeJSONValue(j)}
}

var (
	uuidRE = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	// generatedName matches names made from the catalog's generateName
	// prefixes (which end in "gen-") and the suffix kube-apiserver adds.
	generatedName = regexp.MustCompile(`gen-[bcdfghjklmnpqrstvwxz2456789]{5}\b`)
	// saTokenVolume is the projected volume the ServiceAccount admission
	// plugin adds to Pods, with a random suffix.
	saTokenVolume = regexp.MustCompile(`kube-api-access-[a-z0-9]{5}`)
	// versionInMessage matches resource versions quoted in messages
	// ("too old resource version: 1 (245)", "current: 312").
	versionInMessage = regexp.MustCompile(`((?i:resource ?version)(?: in [a-z ]+)?:? |current: )\d+|(\()\d+(\))`)
	// versionInJSON matches a resource version in JSON quoted in a
	// message (the invalid value of a patch that does not decode).
	versionInJSON = regexp.MustCompile(`(\\"resourceVersion\\":\\")\d+`)
	// timeInMessage matches timestamps quoted in messages.
	timeInMessage = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)
	// serviceIP matches cluster IPs the servers allocate (the e2e
	// cluster's range), as Table cells show them.
	serviceIP = regexp.MustCompile(`\b10\.96\.\d+\.\d+\b`)
	// nodePortInCell matches allocated node ports in a Service's Table
	// cell ("8080:31234/TCP").
	nodePortInCell = regexp.MustCompile(`(\d+):3\d{4}/`)
)

// allocatedKeys hold numbers the servers allocate at random.
var allocatedKeys = map[string]bool{"nodePort": true, "healthCheckNodePort": true}

// timeColumns are Table columns of ages and durations.
var timeColumns = map[string]bool{"Age": true, "Last Seen": true, "First Seen": true, "Duration": true, "Last Schedule": true}

// timeKeys hold timestamps, which differ between runs.
var timeKeys = map[string]bool{
	"creationTimestamp": true, "deletionTimestamp": true, "time": true,
	"lastTransitionTime": true, "lastUpdateTime": true, "lastHeartbeatTime": true,
	"lastProbeTime": true, "eventTime": true, "firstTimestamp": true,
	"lastTimestamp": true, "renewTime": true, "acquireTime": true,
	"expirationTimestamp": true, "lastPhaseTransitionTime": true,
}

// buildKeys describe the build of a server (/version), not its behaviour.
var buildKeys = map[string]bool{"gitCommit": true, "buildDate": true, "goVersion": true, "gitTreeState": true}

// scrub replaces volatile values in decoded JSON with placeholders.
func scrub(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x["columnDefinitions"]; ok {
			scrubTableAges(x)
		}
		for k, val := range x {
			x[k] = scrub(val, k)
			// managedFields name list items by their keys, uids
			// included (k:{"uid":"..."}).
			if nk := uuidRE.ReplaceAllString(k, "<uid>"); nk != k {
				x[nk] = x[k]
				delete(x, k)
			}
		}
		return x
	case []any:
		for i := range x {
			x[i] = scrub(x[i], key)
		}
		if key == "managedFields" {
			sortManagedFields(x)
		}
		return x
	case json.Number:
		if allocatedKeys[key] {
			return "<port>"
		}
		return x
	case string:
		switch {
		case x == "":
			return x
		case key == "resourceVersion":
			return "<rv>"
		case key == "continue":
			return "<continue>"
		case timeKeys[key], buildKeys[key]:
			return "<" + key + ">"
		case key == "clusterIP", key == "clusterIPs":
			return "<ip>"
		case key == "serverAddress":
			return "<host:port>"
		case key == "token":
			return "<token>"
		}
		x = uuidRE.ReplaceAllString(x, "<uid>")
		x = generatedName.ReplaceAllString(x, "gen-<random>")
		x = saTokenVolume.ReplaceAllString(x, "kube-api-access-<random>")
		x = versionInMessage.ReplaceAllString(x, "${1}${2}<rv>${3}")
		x = versionInJSON.ReplaceAllString(x, "${1}<rv>")
		x = timeInMessage.ReplaceAllString(x, "<time>")
		x = serviceIP.ReplaceAllString(x, "<ip>")
		x = nodePortInCell.ReplaceAllString(x, "${1}:<port>/")
		return x
	}
	return v
}

// scrubStreamTables scrubs the ages in the Tables of a watch's events:
// only the first carries the column definitions.
func scrubStreamTables(events any) {
	list, _ := events.([]any)
	var cols any
	for _, e := range list {
		m, _ := e.(map[string]any)
		obj, _ := m["object"].(map[string]any)
		if obj == nil || obj["kind"] != "Table" {
			continue
		}
		if c, ok := obj["columnDefinitions"]; ok && c != nil {
			cols = c
			continue
		}
		if cols != nil {
			obj["columnDefinitions"] = cols
			scrubTableAges(obj)
			obj["columnDefinitions"] = nil
		}
	}
}

// scrubTableAges replaces the cells of a Table's columns of ages and
// durations.
func scrubTableAges(t map[string]any) {
	cols, _ := t["columnDefinitions"].([]any)
	var ages []int
	for i, c := range cols {
		if m, ok := c.(map[string]any); ok && timeColumns[fmt.Sprint(m["name"])] {
			ages = append(ages, i)
		}
	}
	rows, _ := t["rows"].([]any)
	for _, r := range rows {
		m, _ := r.(map[string]any)
		cells, _ := m["cells"].([]any)
		for _, i := range ages {
			if i < len(cells) {
				cells[i] = "<age>"
			}
		}
	}
}

// withoutManagedFields is n without any metadata.managedFields, for the
// figure that leaves them out.
func withoutManagedFields(n normalized) normalized {
	b, _ := json.Marshal(n.Body)
	n.Body = dropKey(decodeJSONValue(b), "managedFields")
	return n
}

func dropKey(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, key)
		for k, val := range x {
			x[k] = dropKey(val, key)
		}
	case []any:
		for i := range x {
			x[i] = dropKey(x[i], key)
		}
	}
	return v
}

// quoteList is used by the catalog to splice strings into JSON.
func quoteList(items ...string) string {
	b, _ := json.Marshal(items)
	return strings.TrimSpace(string(b))
}

// sortManagedFields orders managedFields entries by operation, manager,
// API version and subresource. kube-apiserver orders them by operation,
// then by the second of their time, then by manager and API version: two
// servers run moments apart cross second boundaries at different steps,
// so with times scrubbed only the order without them can be compared
// (seed 6054: one manager's entries of two versions of a custom resource,
// written a second apart on the fake and within one on kube-apiserver).
func sortManagedFields(entries []any) {
	field := func(e any, k string) string {
		m, _ := e.(map[string]any)
		s, _ := m[k].(string)
		return s
	}
	slices.SortStableFunc(entries, func(a, b any) int {
		for _, k := range []string{"operation", "manager", "apiVersion", "subresource"} {
			if c := strings.Compare(field(a, k), field(b, k)); c != 0 {
				return c
			}
		}
		return 0
	})
}
