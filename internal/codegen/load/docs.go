package load

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"github.com/kubewire/kubewire/internal/codegen/markers"
)

// Doc is what the comments say about a package, type or field.
type Doc struct {
	Markers markers.Set
	// Text is the doc comment without its marker lines, trimmed; it
	// becomes the description of the schema.
	Text string
}

// docIndex holds the comment lines of one package's declarations.
type docIndex struct {
	pkg    []string            // lines of comments above the package clause, every file
	types  map[string][]string // type name -> doc lines, markers included
	extra  map[string][]string // type name -> the markers-only group above its doc
	fields map[string][]string // "Type.Field" (and "Type.Field.Inner" in anonymous structs) -> doc lines
}

func indexDocs(fset *token.FileSet, files []*ast.File) *docIndex {
	ix := &docIndex{types: map[string][]string{}, extra: map[string][]string{}, fields: map[string][]string{}}
	for _, f := range files {
		for _, cg := range f.Comments {
			if cg.End() < f.Package {
				ix.pkg = append(ix.pkg, lines(cg)...)
			}
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && gd.Lparen == 0 {
					doc = gd.Doc
				}
				name := ts.Name.Name
				ix.types[name] = lines(doc)
				start := gd.Pos()
				if doc != nil {
					start = doc.Pos()
				}
				if above := groupAbove(fset, f, start); above != nil {
					ix.extra[name] = lines(above)
				}
				if st, ok := ts.Type.(*ast.StructType); ok {
					ix.indexFields(name, st)
				}
			}
		}
	}
	return ix
}

// groupAbove returns the comment group that ends one blank line above
// pos: markers written apart from the doc comment, as controller-gen
// allows.
func groupAbove(fset *token.FileSet, f *ast.File, pos token.Pos) *ast.CommentGroup {
	line := fset.Position(pos).Line
	for _, cg := range f.Comments {
		if cg.End() >= pos || cg.Pos() < f.Name.End() {
			continue
		}
		if fset.Position(cg.End()).Line == line-2 {
			return cg
		}
	}
	return nil
}

func (ix *docIndex) indexFields(prefix string, st *ast.StructType) {
	for _, fld := range st.Fields.List {
		names := make([]string, 0, len(fld.Names))
		for _, n := range fld.Names {
			names = append(names, n.Name)
		}
		if len(names) == 0 { // embedded: named after its type
			names = append(names, embeddedName(fld.Type))
		}
		for _, n := range names {
			key := prefix + "." + n
			ix.fields[key] = lines(fld.Doc)
			if inner, ok := unparen(fld.Type).(*ast.StructType); ok {
				ix.indexFields(key, inner)
			}
		}
	}
}

func unparen(e ast.Expr) ast.Expr {
	for {
		switch t := e.(type) {
		case *ast.ParenExpr:
			e = t.X
		case *ast.StarExpr:
			e = t.X
		case *ast.ArrayType:
			e = t.Elt
		case *ast.MapType:
			e = t.Value
		default:
			return e
		}
	}
}

func embeddedName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return embeddedName(t.X)
	case *ast.SelectorExpr:
		return t.Sel.Name
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return embeddedName(t.X)
	case *ast.IndexListExpr:
		return embeddedName(t.X)
	}
	return ""
}

func lines(cg *ast.CommentGroup) []string {
	if cg == nil {
		return nil
	}
	var out []string
	for _, c := range cg.List {
		text := c.Text
		if strings.HasPrefix(text, "//") {
			out = append(out, text[2:])
			continue
		}
		text = strings.TrimSuffix(strings.TrimPrefix(text, "/*"), "*/")
		for _, l := range strings.Split(text, "\n") {
			out = append(out, strings.TrimPrefix(strings.TrimSpace(l), "* "))
		}
	}
	return out
}

// docOf turns comment lines into a Doc. Unknown kubebuilder markers are
// errors when strict (the target packages) and skipped otherwise.
func docOf(what string, docLines, extra []string, strict bool) (Doc, error) {
	all := append(append([]string(nil), extra...), docLines...)
	set, err := parseMarkers(all, strict)
	if err != nil {
		return Doc{}, fmt.Errorf("%s: %w", what, err)
	}
	var text []string
	for _, l := range docLines {
		if markers.IsMarker(l) {
			continue
		}
		text = append(text, strings.TrimPrefix(l, " "))
	}
	return Doc{Markers: set, Text: strings.TrimSpace(strings.Join(text, "\n"))}, nil
}

func parseMarkers(ls []string, strict bool) (markers.Set, error) {
	if strict {
		return markers.Parse(ls)
	}
	var set markers.Set
	for _, l := range ls {
		s, err := markers.Parse([]string{l})
		if err == nil {
			set = append(set, s...)
		}
	}
	return set, nil
}

// index returns the comment index of a package, parsing a dependency's
// files on first use. It returns nil for a package it cannot find (the
// universe, a package outside the listing).
func (l *Loader) index(path string) *docIndex {
	if ix, ok := l.docs[path]; ok {
		return ix
	}
	lp, ok := l.listed[path]
	if !ok {
		l.docs[path] = nil
		return nil
	}
	var files []*ast.File
	fset := token.NewFileSet()
	for _, name := range lp.GoFiles {
		fname := filepath.Join(lp.Dir, name)
		src, err := os.ReadFile(fname)
		if err != nil || isGenerated(src) {
			continue
		}
		f, err := parser.ParseFile(fset, fname, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		files = append(files, f)
	}
	ix := indexDocs(fset, files)
	l.docs[path] = ix
	return ix
}

func (l *Loader) strict(path string) bool { return l.Target(path) != nil }

// PackageDoc returns the markers written above the package clause of
// any file of the package (doc.go by convention).
func (l *Loader) PackageDoc(path string) (Doc, error) {
	ix := l.index(path)
	if ix == nil {
		return Doc{}, nil
	}
	d, err := docOf("package "+path, ix.pkg, nil, l.strict(path))
	d.Text = "" // a package's doc is not a description
	return d, err
}

// TypeDoc returns the doc comment and markers of a named type.
func (l *Loader) TypeDoc(tn *types.TypeName) (Doc, error) {
	if tn.Pkg() == nil {
		return Doc{}, nil
	}
	ix := l.index(tn.Pkg().Path())
	if ix == nil {
		return Doc{}, nil
	}
	return docOf("type "+tn.Pkg().Path()+"."+tn.Name(), ix.types[tn.Name()], ix.extra[tn.Name()], l.strict(tn.Pkg().Path()))
}

// FieldDoc returns the doc comment and markers of a field of the named
// struct type owner; path is the field's name, or names joined by dots
// for fields of anonymous structs inside it ("Spec.Size").
func (l *Loader) FieldDoc(owner *types.TypeName, path string) (Doc, error) {
	if owner.Pkg() == nil {
		return Doc{}, nil
	}
	ix := l.index(owner.Pkg().Path())
	if ix == nil {
		return Doc{}, nil
	}
	key := owner.Name() + "." + path
	return docOf("field "+owner.Pkg().Path()+"."+key, ix.fields[key], nil, l.strict(owner.Pkg().Path()))
}
