//go:build ignore

package main

import (
	"fmt"
	"go/types"
	"os"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

func main() {
	cfg := &packages.Config{Mode: packages.NeedTypes | packages.NeedName | packages.NeedDeps | packages.NeedImports, Dir: "/work/main/tools/apigen"}
	pkgs, err := packages.Load(cfg, os.Args[1:]...)
	if err != nil {
		panic(err)
	}
	for _, p := range pkgs {
		sc := p.Types.Scope()
		names := sc.Names()
		sort.Strings(names)
		for _, n := range names {
			o := sc.Lookup(n)
			tn, ok := o.(*types.TypeName)
			if !ok || !o.Exported() {
				continue
			}
			u := tn.Type().Underlying()
			ms := types.NewMethodSet(types.NewPointer(tn.Type()))
			var special []string
			for i := 0; i < ms.Len(); i++ {
				m := ms.At(i).Obj().Name()
				if m == "MarshalJSON" || m == "UnmarshalJSON" || m == "ProtoMessage" || m == "Marshal" {
					special = append(special, m)
				}
			}
			kind := fmt.Sprintf("%T", u)
			if _, ok := u.(*types.Struct); ok {
				kind = "struct"
			}
			extra := ""
			if st, ok := u.(*types.Struct); ok {
				for i := 0; i < st.NumFields(); i++ {
					tag := st.Tag(i)
					if !strings.Contains(tag, "protobuf") && !strings.Contains(tag, `json:",inline"`) {
						extra += " NOPB:" + st.Field(i).Name()
					}
				}
			} else {
				extra = " " + u.String()
			}
			fmt.Printf("%s %s %v%s\n", n, kind, special, extra)
		}
	}
}
