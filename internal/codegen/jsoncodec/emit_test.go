package jsoncodec_test

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/internal/codegen/jsoncodec"
)

// typesOf type-checks src (a package named p without imports) and
// returns its named types in source order.
func typesOf(t testing.TB, src string) []*types.Named {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []*types.Named
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
			for _, s := range g.Specs {
				out = append(out, pkg.Scope().Lookup(s.(*ast.TypeSpec).Name.Name).Type().(*types.Named))
			}
		}
	}
	return out
}

const src = `package p

type Phase string

type Meta struct {
	Kind string ` + "`json:\"kind\"`" + `
}

type Inner struct {
	Deep int32 ` + "`json:\"deep\"`" + `
}

type Thing struct {
	Meta ` + "`json:\",inline\"`" + `
	*Inner
	Name    string            ` + "`json:\"name\"`" + `
	Phase   Phase             ` + "`json:\"phase,omitempty\"`" + `
	Count   *int64            ` + "`json:\"count\"`" + `
	Ratio   float64           ` + "`json:\"ratio\"`" + `
	On      bool              ` + "`json:\"on\"`" + `
	Data    []byte            ` + "`json:\"data\"`" + `
	Tags    []string          ` + "`json:\"tags\"`" + `
	Labels  map[string]string ` + "`json:\"labels\"`" + `
	ByName  map[string]Inner  ` + "`json:\"byName\"`" + `
	Any     interface{}       ` + "`json:\"any\"`" + `
	Skipped string            ` + "`json:\"-\"`" + `
	Untagged uint16
	hidden  string
}

type List []Thing
`

func TestEmit(t *testing.T) {
	named := typesOf(t, src)
	var body bytes.Buffer
	var gen []*types.Named
	for _, n := range named {
		if jsoncodec.Supported(n, jsoncodec.Config{}) {
			gen = append(gen, n)
		}
	}
	if err := jsoncodec.Emit(&body, gen, jsoncodec.Config{Unique: func(typ, field string) bool { return typ == "Thing" && field == "Name" }}); err != nil {
		t.Fatal(err)
	}
	file := "package p\n\nimport \"github.com/kubewire/kubewire/api/jsonwire\"\n\n" + body.String()
	out, err := format.Source([]byte(file))
	if err != nil {
		t.Fatalf("emitted code does not parse: %v\n%s", err, file)
	}
	got := string(out)
	for _, want := range []string{
		"func (m *Meta) DecodeJSON(d *jsonwire.Decoder) error {",
		"func (m *List) DecodeJSON(d *jsonwire.Decoder) error {",
		`case "kind":` + "\n\t\t\tjsonwire.String(d, &m.Meta.Kind)", // promoted from the inline struct
		`case "deep":` + "\n\t\t\tif m.Inner == nil {",              // embedded pointer allocated first
		"jsonwire.UniqueString(d, &m.Name)",
		"jsonwire.String(d, &m.Phase)",
		"m.Count = new(int64)",
		"jsonwire.Float(d, &m.Ratio)",
		"jsonwire.Bool(d, &m.On)",
		"jsonwire.Bytes(d, &m.Data)",
		"jsonwire.StringMap(d, &m.Labels)",
		"jsonwire.Map(d, &m.ByName, \"map[string]Inner\", func(d *jsonwire.Decoder, v *Inner) {",
		"m.Any = d.Interface()",
		`case "Untagged":` + "\n\t\t\tjsonwire.Uint(d, &m.Untagged)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("emitted code lacks %q", want)
		}
	}
	for _, unwanted := range []string{`"Skipped"`, `"hidden"`, "func (m *Phase)"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("emitted code has %q", unwanted)
		}
	}
	if t.Failed() {
		t.Log(got)
	}
}

func TestEmitRejectsWhatItCannotDecode(t *testing.T) {
	named := typesOf(t, "package p\n\ntype T struct {\n\tM map[int]string `json:\"m\"`\n}\n")
	if err := jsoncodec.Emit(new(bytes.Buffer), named, jsoncodec.Config{}); err == nil || !strings.Contains(err.Error(), "map key") {
		t.Errorf("Emit = %v, want an error about the map key", err)
	}
}
