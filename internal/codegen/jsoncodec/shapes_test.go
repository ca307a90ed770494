package jsoncodec_test

import (
	"bytes"
	"flag"
	"go/types"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewire/kubewire/internal/codegen/gofile"
	"github.com/kubewire/kubewire/internal/codegen/jsoncodec"
	"github.com/kubewire/kubewire/internal/codegen/load"
)

var update = flag.Bool("update", false, "rewrite testdata/shapes/zz_generated.json.go")

// shapesSource generates the encoders of package testdata/shapes.
func shapesSource(t *testing.T) []byte {
	t.Helper()
	_, pkgs, err := load.Load("testdata/shapes", ".")
	if err != nil {
		t.Fatal(err)
	}
	p := pkgs[0]
	if len(p.TypeErrors) > 0 {
		t.Fatal(p.TypeErrors[0])
	}
	f := gofile.New(p.Path, p.Name)
	cfg := jsoncodec.Config{
		Qualifier: f.Qualifier(),
		Runtime:   func() string { return f.Import(jsoncodec.RuntimePath, "jsonwire") },
	}
	var named []*types.Named
	scope := p.Types.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if n, ok := tn.Type().(*types.Named); ok && jsoncodec.EncoderSupported(n, cfg) {
			named = append(named, n)
		}
	}
	var body bytes.Buffer
	if err := jsoncodec.EmitEncoders(&body, named, cfg); err != nil {
		t.Fatal(err)
	}
	f.P("%s", body.String())
	src, err := f.Bytes(load.GeneratedMarker + " (jsoncodec's TestShapesGolden). DO NOT EDIT.")
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestShapesGolden checks that testdata/shapes/zz_generated.json.go is
// what EmitEncoders writes now; -update rewrites it.
func TestShapesGolden(t *testing.T) {
	got := shapesSource(t)
	path := filepath.Join("testdata", "shapes", "zz_generated.json.go")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s is stale (go test -run Golden -update) (-file +generated):\n%s", path, diff)
	}
}
