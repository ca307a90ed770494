package request

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// DuplicateFieldPaths returns the paths of the fields a JSON document
// names twice in one object, in document order ("data",
// "spec.containers[0].name"), as kube-apiserver's strict decoding
// reports them.
func DuplicateFieldPaths(body []byte) []string {
	var found []string
	scanFieldPaths(body, func(path func() string, dup bool) {
		if dup {
			found = append(found, path())
		}
	})
	return found
}

// inDocumentOrder words a built-in kind's unknown and duplicate fields
// in the order kube-apiserver's strict decoder meets them in the body:
// an unknown field where it first appears, a duplicate where it appears
// again.
func inDocumentOrder(body []byte, unknown, dups []string) []string {
	first := map[string]int{}
	var again []int // the positions of dups, in order
	n := 0
	scanFieldPaths(body, func(path func() string, dup bool) {
		n++
		if dup {
			again = append(again, n)
			return
		}
		if p := path(); first[p] == 0 {
			first[p] = n
		}
	})
	type problem struct {
		text string
		pos  int
	}
	var ps []problem
	for _, u := range unknown {
		pos, ok := first[u]
		if !ok {
			pos = n + 1
		}
		ps = append(ps, problem{fmt.Sprintf("unknown field %q", u), pos})
	}
	for i, d := range dups {
		pos := n + 1
		if i < len(again) {
			pos = again[i]
		}
		ps = append(ps, problem{fmt.Sprintf("duplicate field %q", d), pos})
	}
	slices.SortStableFunc(ps, func(a, b problem) int { return cmp.Compare(a.pos, b.pos) })
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.text
	}
	return out
}

// scanFieldPaths calls visit for every object key of a JSON document in
// document order, saying whether the key repeats one of its object. The
// path of the value being read is kept as a stack of segments and
// written out only when visit asks for it, so that memory stays
// proportional to the body however deep it nests.
func scanFieldPaths(body []byte, visit func(path func() string, dup bool)) {
	dec := json.NewDecoder(bytes.NewReader(body))
	var segs []string // keys, and "[i]" for list items
	path := func() string {
		var b strings.Builder
		for _, s := range segs {
			// An empty key is a segment too (a body may use one).
			if b.Len() > 0 && !strings.HasPrefix(s, "[") {
				b.WriteByte('.')
			}
			b.WriteString(s)
		}
		return b.String()
	}
	var walk func() error
	walk = func() error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := k.(string)
				segs = append(segs, key)
				visit(path, seen[key])
				seen[key] = true
				err = walk()
				segs = segs[:len(segs)-1]
				if err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				segs = append(segs, "["+strconv.Itoa(i)+"]")
				err := walk()
				segs = segs[:len(segs)-1]
				if err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		return nil
	}
	_ = walk()
}
