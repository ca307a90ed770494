package patch

import "testing"

// The shapes are kube-apiserver v1.36.3's quotes of JSON patch results
// that do not decode (e2e TestFuzzFidelity's reports): decoded
// containers sorted, the rest as the typed encoding wrote it.
func TestJSONPatchedAsWritten(t *testing.T) {
	orig := `{"kind":"Service","apiVersion":"v1","metadata":{"name":"a","namespace":"b","managedFields":[{"manager":"m","operation":"Update","apiVersion":"v1"}]},"spec":{"ports":[{"protocol":"TCP","port":80}],"type":"ClusterIP"}}`
	for _, tt := range []struct{ name, ops, want string }{
		{"replace deep", `[{"op":"replace","path":"/spec/ports/0/port","value":"x"}]`,
			`{"apiVersion":"v1","kind":"Service","metadata":{"name":"a","namespace":"b","managedFields":[{"manager":"m","operation":"Update","apiVersion":"v1"}]},"spec":{"ports":[{"port":"x","protocol":"TCP"}],"type":"ClusterIP"}}`},
		{"add to metadata", `[{"op":"add","path":"/metadata/creationTimestamp","value":"Not_Valid!"}]`,
			`{"apiVersion":"v1","kind":"Service","metadata":{"creationTimestamp":"Not_Valid!","managedFields":[{"manager":"m","operation":"Update","apiVersion":"v1"}],"name":"a","namespace":"b"},"spec":{"ports":[{"protocol":"TCP","port":80}],"type":"ClusterIP"}}`},
		{"value keeps the patch's order", `[{"op":"add","path":"/spec/ports/-","value":{"z":1,"a":2}}]`,
			`{"apiVersion":"v1","kind":"Service","metadata":{"name":"a","namespace":"b","managedFields":[{"manager":"m","operation":"Update","apiVersion":"v1"}]},"spec":{"ports":[{"protocol":"TCP","port":80},{"z":1,"a":2}],"type":"ClusterIP"}}`},
		{"test decodes what it compares", `[{"op":"test","path":"/metadata","value":{}}]`,
			`{"apiVersion":"v1","kind":"Service","metadata":{"managedFields":[{"apiVersion":"v1","manager":"m","operation":"Update"}],"name":"a","namespace":"b"},"spec":{"ports":[{"protocol":"TCP","port":80}],"type":"ClusterIP"}}`},
		{"move", `[{"op":"move","from":"/spec/type","path":"/metadata/type"}]`,
			`{"apiVersion":"v1","kind":"Service","metadata":{"managedFields":[{"manager":"m","operation":"Update","apiVersion":"v1"}],"name":"a","namespace":"b","type":"ClusterIP"},"spec":{"ports":[{"protocol":"TCP","port":80}]}}`},
	} {
		if got := string(jsonPatchedAsWritten([]byte(orig), []byte(tt.ops))); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}
