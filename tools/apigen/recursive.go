package main

import "go/types"

// recursiveTypes names the message types that can contain themselves
// (JSONSchemaProps through its properties, items and the like). Their
// decoders count nesting depth: only they can nest without bound.
func (g *generator) recursiveTypes() map[string]bool {
	children := map[string][]string{}
	for _, pm := range g.m.pkgs {
		for _, t := range pm.types {
			if !t.proto {
				continue
			}
			fields, err := g.protoFields(t)
			if err != nil {
				continue // emitProto reports it
			}
			key := typeKeyOf(t.named)
			for _, pf := range fields {
				if n := messageNamed(pf.typ); n != nil {
					children[key] = append(children[key], typeKeyOf(n))
				}
			}
		}
	}
	out := map[string]bool{}
	for start := range children {
		seen := map[string]bool{}
		stack := append([]string(nil), children[start]...)
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if k == start {
				out[start] = true
				break
			}
			if !seen[k] {
				seen[k] = true
				stack = append(stack, children[k]...)
			}
		}
	}
	return out
}

// messageNamed returns the named struct a field holds, through pointers,
// slices, map values and named collections, or nil.
func messageNamed(t types.Type) *types.Named {
	for {
		switch u := t.(type) {
		case *types.Named:
			if _, ok := u.Underlying().(*types.Struct); ok {
				return u
			}
			if isBytes(u) {
				return nil
			}
			t = u.Underlying() // JSONSchemaDefinitions, a named map, for example
		case *types.Pointer:
			t = u.Elem()
		case *types.Slice:
			t = u.Elem()
		case *types.Map:
			t = u.Elem()
		default:
			return nil
		}
	}
}

func typeKeyOf(n *types.Named) string { return n.Obj().Pkg().Path() + "." + n.Obj().Name() }
