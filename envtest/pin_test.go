package envtest

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var pinVersion = flag.String("pin", "", "resolve this Kubernetes release's build module and write pins/VERSION.mod and .sum")

// TestPin writes the pinned build module of a release for the package to
// embed (run by hand when moving to a new release):
//
//	go test -run TestPin -pin v1.37.0 .
//
// It resolves the module as an unpinned release would be (from
// kubernetes' own go.mod, then go mod tidy), so the pin is exactly what
// Build would otherwise compute.
func TestPin(t *testing.T) {
	if *pinVersion == "" {
		t.Skip("run with -pin VERSION to write pins/VERSION.mod and .sum")
	}
	if !validVersion(*pinVersion) {
		t.Fatalf("-pin %q: want v1.MINOR.PATCH", *pinVersion)
	}
	g, err := newGoRunner()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := writeMains(dir); err != nil {
		t.Fatal(err)
	}
	if err := resolveBuildModule(t.Context(), g, dir, *pinVersion); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{"mod", "sum"} {
		b, err := os.ReadFile(filepath.Join(dir, "go."+ext))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("pins", *pinVersion+"."+ext), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("wrote pins/%s.mod and .sum", *pinVersion)
}
