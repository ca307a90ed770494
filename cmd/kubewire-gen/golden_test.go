package main

import (
	"bytes"
	"flag"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/api from a fresh run")

// goldenOptions generate the test packages, as `go generate` would:
//
//	kubewire-gen -crd-dir testdata/api/crd ./testdata/api/v1 ./testdata/api/v1beta1 ./testdata/api/alpha
func goldenOptions() options {
	return options{
		patterns:    []string{"./testdata/api/v1", "./testdata/api/v1beta1", "./testdata/api/alpha"},
		crdDir:      "testdata/api/crd",
		applyConfig: true,
	}
}

// The files in testdata/api are what a fresh run writes, byte for byte,
// and no generated file there is stale. Run with -update to rewrite them.
func TestGolden(t *testing.T) {
	out, err := generate(goldenOptions())
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := out.write(); err != nil {
			t.Fatal(err)
		}
	}
	var onDisk []string
	err = filepath.WalkDir("testdata/api", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if generatedByUs(b) {
			abs, err := filepath.Abs(p)
			if err != nil {
				return err
			}
			onDisk = append(onDisk, abs)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	produced := slices.Sorted(maps.Keys(out.files))
	if diff := cmp.Diff(produced, onDisk); diff != "" {
		t.Errorf("generated files on disk (-produced +on disk), run go test -update:\n%s", diff)
	}
	for _, p := range produced {
		got, err := os.ReadFile(p)
		if err != nil {
			t.Errorf("%v (run go test -update)", err)
			continue
		}
		if diff := cmp.Diff(string(out.files[p]), string(got)); diff != "" {
			t.Errorf("%s differs from a fresh run (-fresh +on disk), run go test -update:\n%s", p, diff)
		}
	}
}

// Two runs give the same bytes: nothing depends on map order or time.
func TestDeterministic(t *testing.T) {
	a, err := generate(goldenOptions())
	if err != nil {
		t.Fatal(err)
	}
	b, err := generate(goldenOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !maps.EqualFunc(a.files, b.files, bytes.Equal) {
		t.Error("two runs differ")
	}
	for p, src := range a.files {
		if !bytes.HasPrefix(src, []byte(header+"\n")) && !bytes.HasPrefix(src, []byte("# "+strings.TrimPrefix(header, "// ")+"\n")) {
			t.Errorf("%s does not start with the generated-code header", p)
		}
	}
}

// Each broken package fails with an error that says what to change.
func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		pkgs []string
		want string
	}{
		{[]string{"float"}, "floating-point numbers do not round-trip"},
		{[]string{"misspelt"}, `"+kubebuilder:validation:Minimun=1": unknown marker`},
		{[]string{"recursive"}, "type Node contains itself"},
		{[]string{"nometa"}, "is not a struct embedding github.com/kubewire/kubewire/api/meta/v1.ObjectMeta"},
		{[]string{"nogroup"}, "no +groupName=<group> marker"},
		{[]string{"scale"}, `scale path .spec.replicas: the schema has "string" there, want a field of type integer`},
		{[]string{"mapkey"}, ".index: map keys must be strings"},
		{[]string{"unique"}, "kube-apiserver refuses uniqueItems"},
		{[]string{"nostatus"}, "+kubebuilder:subresource:status needs a status field"},
		{[]string{"twostorage/v1", "twostorage/v2"}, "mark exactly one of them +kubebuilder:storageversion"},
		{[]string{"compile"}, "undefined: NoSuchType"},
	} {
		t.Run(strings.Join(tc.pkgs, ","), func(t *testing.T) {
			o := options{crdDir: t.TempDir(), applyConfig: true}
			for _, p := range tc.pkgs {
				o.patterns = append(o.patterns, "./testdata/bad/"+p)
			}
			_, err := generate(o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v\nwant one containing %q", err, tc.want)
			}
		})
	}
}

func TestUsage(t *testing.T) {
	var stderr bytes.Buffer
	if err := run(nil, &stderr); err == nil || !strings.Contains(stderr.String(), "usage: kubewire-gen [flags] packages...") {
		t.Errorf("no packages: %v\n%s", err, stderr.String())
	}
	if err := run([]string{"-no-such-flag", "."}, &stderr); err == nil {
		t.Error("unknown flag accepted")
	}
}

// A run removes the stale files of the groups it generates and keeps
// those of other groups in the same folder.
func TestStaleFiles(t *testing.T) {
	dir := t.TempDir()
	stale := "# " + strings.TrimPrefix(header, "// ") + "\nkind: CustomResourceDefinition\n"
	for _, name := range []string{"shapes.kubewire.dev_removed.yaml", "other.example.com_things.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(stale), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "shapes.kubewire.dev_handwritten.yaml"), []byte("kind: CustomResourceDefinition\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := goldenOptions()
	o.crdDir = dir
	out, err := generate(o)
	if err != nil {
		t.Fatal(err)
	}
	for p := range out.files { // write only the YAML: the Go files are the goldens'
		if filepath.Dir(p) != dir {
			delete(out.files, p)
		}
	}
	out.owned = slices.DeleteFunc(out.owned, func(d ownedDir) bool { return d.dir != dir })
	if err := out.write(); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{"other.example.com_things.yaml", "shapes.kubewire.dev_gadgetries.yaml", "shapes.kubewire.dev_handwritten.yaml", "shapes.kubewire.dev_widgets.yaml"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}
