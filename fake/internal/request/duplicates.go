package request

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/kubewire/kubewire/fake/internal/object"
)

// duplicateFieldPaths returns the paths of the fields a JSON document
// names twice in one object, in document order ("data",
// "spec.containers[0].name"), as kube-apiserver's strict decoding
// reports them.
func duplicateFieldPaths(body []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(body))
	var found []string
	var walk func(path string) error
	walk = func(path string) error {
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
				child := object.JoinPath(path, key)
				if seen[key] {
					found = append(found, child)
				}
				seen[key] = true
				if err := walk(child); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := walk(path + "[" + strconv.Itoa(i) + "]"); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		return nil
	}
	_ = walk("")
	return found
}
