package selector

// Metadata is the part of a label selector and a field selector that an
// object's metadata answers: every label requirement, and the field
// terms on metadata.name and metadata.namespace (other fields are a
// kind's own, known only to the server).
type Metadata struct {
	labels Labels
	fields []FieldTerm
}

// ParseMetadata parses a label and a field selector ("" selects
// everything) and keeps what Matches can check.
func ParseMetadata(labels, fields string) (Metadata, error) {
	var m Metadata
	var err error
	if m.labels, err = ParseLabels(labels); err != nil {
		return Metadata{}, err
	}
	fs, err := ParseFields(fields)
	if err != nil {
		return Metadata{}, err
	}
	for _, t := range fs.terms {
		if t.Field == "metadata.name" || t.Field == "metadata.namespace" {
			m.fields = append(m.fields, t)
		}
	}
	return m, nil
}

// Matches reports whether an object of this namespace, name and labels
// is selected, as far as its metadata tells.
func (m Metadata) Matches(namespace, name string, labels map[string]string) bool {
	if !m.labels.Matches(labels) {
		return false
	}
	for _, t := range m.fields {
		v := name
		if t.Field == "metadata.namespace" {
			v = namespace
		}
		if (v == t.Value) == t.Not {
			return false
		}
	}
	return true
}
