package rbac_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"

	"github.com/kubewire/kubewire/internal/codegen/rbac"
)

func Example() {
	const src = `package main

// +kubebuilder:rbac:groups=operator.kubewire.dev,resources=widgets,verbs=get;list;watch
// +kubebuilder:rbac:groups=operator.kubewire.dev,resources=widgets,verbs=patch
// +kubebuilder:rbac:groups=core,resources=configmaps,verbs=get;list;watch

func main() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src, parser.ParseComments)
	if err != nil {
		panic(err)
	}
	rules, err := rbac.Collect(fset, []*ast.File{f})
	if err != nil {
		panic(err)
	}
	y, err := rbac.YAML(rbac.Roles(rules), "manager-role", "")
	if err != nil {
		panic(err)
	}
	fmt.Print(string(y))
	// Output:
	// ---
	// apiVersion: rbac.authorization.k8s.io/v1
	// kind: ClusterRole
	// metadata:
	//   name: manager-role
	// rules:
	// - apiGroups:
	//   - ""
	//   resources:
	//   - configmaps
	//   verbs:
	//   - get
	//   - list
	//   - watch
	// - apiGroups:
	//   - operator.kubewire.dev
	//   resources:
	//   - widgets
	//   verbs:
	//   - get
	//   - list
	//   - patch
	//   - watch
}
