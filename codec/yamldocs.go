package codec

import "bytes"

// SplitYAMLDocuments splits a YAML stream (a file of manifests) at its
// "---" document separators: a line that is "---" alone or followed by
// a space, trailing spaces and a CR allowed. The documents are sub-slices
// of b, in order, separators left out; a document may be empty or hold
// only comments (a leading "---" gives an empty first one), so callers
// skip those. A JSON file is one document. Each document is then read
// with YAMLToJSON or DecodeYAML, which take one document.
func SplitYAMLDocuments(b []byte) [][]byte {
	var docs [][]byte
	start := 0
	for i := 0; i < len(b); {
		end := bytes.IndexByte(b[i:], '\n')
		next := len(b)
		if end >= 0 {
			end += i
			next = end + 1
		} else {
			end = len(b)
		}
		line := bytes.TrimRight(b[i:end], " \t\r")
		if bytes.Equal(line, []byte("---")) || bytes.HasPrefix(line, []byte("--- ")) {
			docs = append(docs, b[start:i])
			start = next
		}
		i = next
	}
	return append(docs, b[start:])
}
