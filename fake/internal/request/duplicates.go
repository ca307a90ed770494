package request

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// duplicateFieldPaths returns the paths of the fields a JSON document
// names twice in one object, in document order ("data",
// "spec.containers[0].name"), as kube-apiserver's strict decoding
// reports them. The path of the value being read is kept as a stack of
// segments and written out only for a duplicate, so that memory stays
// proportional to the body however deep it nests.
func duplicateFieldPaths(body []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(body))
	var found []string
	var segs []string // keys, and "[i]" for list items
	path := func() string {
		var b strings.Builder
		for _, s := range segs {
			if b.Len() > 0 && s[0] != '[' {
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
				if seen[key] {
					found = append(found, path())
				}
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
	return found
}
