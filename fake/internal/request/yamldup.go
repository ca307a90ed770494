package request

import (
	"strings"

	"sigs.k8s.io/yaml"
)

// YAMLDuplicateKeys returns the problems kube-apiserver's strict YAML
// decoding reports for a body that names a mapping key twice, one per
// key in document order ("line 8: key \"a\" already set in map"); nil
// for a body without duplicates or one the strict parser cannot read
// for another reason (the lenient conversion reports that).
func YAMLDuplicateKeys(body []byte) (problems []string) {
	defer func() {
		// The YAML parser is not ours: a parser bug on a request body
		// must not take the server down.
		if recover() != nil {
			problems = nil
		}
	}()
	_, err := yaml.YAMLToJSONStrict(body)
	if err == nil {
		return nil
	}
	const head = "yaml: unmarshal errors:\n"
	msg := err.Error()
	i := strings.Index(msg, head)
	if i < 0 {
		return nil
	}
	for _, line := range strings.Split(msg[i+len(head):], "\n") {
		if line = strings.TrimSpace(line); strings.HasSuffix(line, "already set in map") {
			problems = append(problems, line)
		}
	}
	return problems
}

// strictProblems is the text after "strict decoding error: ": the YAML
// duplicate keys under kube-apiserver's YAML parser's heading, then the
// other problems, comma separated.
func strictProblems(yamlKeys, others []string) string {
	var parts []string
	if len(yamlKeys) > 0 {
		parts = append(parts, "yaml: unmarshal errors:\n  "+strings.Join(yamlKeys, "\n  "))
	}
	return strings.Join(append(parts, others...), ", ")
}
