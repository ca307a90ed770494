package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/kubewire/kubewire/internal/codegen/rbac"
)

// rbacOptions are the command line of `kubewire-gen rbac`.
type rbacOptions struct {
	dir      string // where go list runs; "" is the working directory
	patterns []string
	outDir   string
	roleName string
	fileName string
	header   string
	// warn, when set, is told of each marker the run does not read.
	warn func(string)
}

// runRBAC is `kubewire-gen rbac [flags] packages...`.
func runRBAC(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("kubewire-gen rbac", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o rbacOptions
	var headerFile string
	fs.StringVar(&o.outDir, "dir", "", "folder for role.yaml (default: config/rbac in the module root of the first package)")
	fs.StringVar(&o.roleName, "role-name", "manager-role", "name of the ClusterRole and Roles (kubebuilder's manager-role)")
	fs.StringVar(&o.fileName, "file", "role.yaml", "file name of the manifest")
	fs.StringVar(&headerFile, "header-file", "", "file whose text (a license comment, each line starting with #) starts the manifest")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: kubewire-gen rbac [flags] packages...")
		fmt.Fprintln(stderr, "\nWrites the ClusterRole and Roles of the packages' +kubebuilder:rbac markers, as controller-gen's\nrbac generator writes them (see go doc github.com/kubewire/kubewire/cmd/kubewire-gen).")
		fmt.Fprintln(stderr, "\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	o.patterns = fs.Args()
	if len(o.patterns) == 0 {
		fs.Usage()
		return fmt.Errorf("no packages given")
	}
	if headerFile != "" {
		b, err := os.ReadFile(headerFile)
		if err != nil {
			return err
		}
		o.header = string(b)
	}
	o.warn = func(msg string) { fmt.Fprintln(stderr, "kubewire-gen rbac: warning:", msg) }
	out, err := generateRBAC(o)
	if err != nil {
		return err
	}
	return out.write()
}

// generateRBAC computes the manifest of a run: the file, or, without
// markers, nothing (and a role.yaml an earlier run wrote is removed).
func generateRBAC(o rbacOptions) (*output, error) {
	pkgs, err := listSources(o.dir, o.patterns)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var rules []rbac.Rule
	for _, p := range pkgs {
		var files []*ast.File
		for _, name := range p.GoFiles {
			path := filepath.Join(p.Dir, name)
			src, err := os.ReadFile(path)
			if err != nil {
				return nil, err
			}
			if generatedByUs(src) {
				continue
			}
			f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		}
		rs, err := rbac.Collect(fset, files)
		if err != nil {
			return nil, err
		}
		rules = append(rules, rs...)
		if o.warn != nil {
			for _, at := range rbac.Unread(fset, files) {
				o.warn(at + ": this +kubebuilder:rbac marker is not read (nor by controller-gen): it is in a declaration's doc comment or body; put it in a comment of its own, with a blank line between it and the declaration")
			}
		}
	}
	dir := o.outDir
	switch {
	case dir == "" && pkgs[0].Module == nil:
		return nil, fmt.Errorf("package %s is in no module: set -dir", pkgs[0].ImportPath)
	case dir == "":
		dir = filepath.Join(pkgs[0].Module.Dir, "config", "rbac")
	case !filepath.IsAbs(dir) && o.dir != "":
		dir = filepath.Join(o.dir, dir)
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, err
	}
	out := &output{files: map[string][]byte{}}
	out.own(dir, o.fileName, o.fileName)
	if len(rules) == 0 {
		return out, nil
	}
	y, err := rbac.YAML(rbac.Roles(rules), o.roleName, yamlHeader(o.header))
	if err != nil {
		return nil, err
	}
	out.files[filepath.Join(dir, o.fileName)] = y
	return out, nil
}

// yamlHeader is the header of a generated YAML file: the license text,
// then kubewire-gen's line.
func yamlHeader(license string) string {
	h := "# " + strings.TrimPrefix(header, "// ") + "\n"
	if license == "" {
		return h
	}
	if !strings.HasSuffix(license, "\n") {
		license += "\n"
	}
	return license + h
}

// source is a package as go list names it.
type source struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Module     *struct{ Dir string }
	Error      *struct{ Err string }
}

// listSources lists the packages of patterns (no dependencies: only
// their comments are read).
func listSources(dir string, patterns []string) ([]*source, error) {
	cmd := exec.Command("go", append([]string{"list", "-e", "-json=ImportPath,Dir,GoFiles,Module,Error"}, patterns...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v\n%s", strings.Join(patterns, " "), err, stderr.Bytes())
	}
	var pkgs []*source
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		p := new(source)
		if err := dec.Decode(p); err != nil {
			return nil, fmt.Errorf("go list output: %w", err)
		}
		if p.Error != nil && len(p.GoFiles) == 0 {
			return nil, fmt.Errorf("package %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}
	return pkgs, nil
}
