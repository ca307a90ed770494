package object

import (
	"encoding/json"
	"errors"
	"slices"
)

// sortKeys rewrites JSON that encoding/json wrote (no insignificant
// space) with every object's keys in the order json.Marshal writes a
// map's: what decoding it into map[string]any and encoding it again
// gives, for the integers, strings, booleans and nulls json.Marshal
// writes, without building the maps. It reads the document once and
// copies each value once, so a value nested 10,000 levels deep costs
// memory in proportion to its size.
func sortKeys(b []byte) ([]byte, error) {
	return appendSortedKeys(make([]byte, 0, len(b)), b)
}

// appendSortedKeys appends what sortKeys returns to out.
func appendSortedKeys(out, b []byte) ([]byte, error) {
	closing, err := matchBrackets(b)
	if err != nil {
		return nil, err
	}
	s := keySorter{b: b, closing: closing, out: out}
	end, err := s.value(0)
	if err != nil {
		return nil, err
	}
	if end != len(b) {
		return nil, errors.New("sortKeys: data after the value")
	}
	return s.out, nil
}

// matchBrackets maps the offset of every '{' and '[' outside strings to
// the offset of the bracket that closes it.
func matchBrackets(b []byte) (map[int]int, error) {
	closing := map[int]int{}
	var open []int
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			end, err := stringEnd(b, i)
			if err != nil {
				return nil, err
			}
			i = end - 1
		case '{', '[':
			open = append(open, i)
		case '}', ']':
			if len(open) == 0 {
				return nil, errors.New("sortKeys: unbalanced brackets")
			}
			closing[open[len(open)-1]] = i
			open = open[:len(open)-1]
		}
	}
	if len(open) != 0 {
		return nil, errors.New("sortKeys: unbalanced brackets")
	}
	return closing, nil
}

// stringEnd returns the offset after the string that starts at i.
func stringEnd(b []byte, i int) (int, error) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return 0, errors.New("sortKeys: unterminated string")
}

type keySorter struct {
	b       []byte
	closing map[int]int
	out     []byte
}

// member is one key and value of an object, as offsets into the input.
type member struct {
	key          string // decoded, for sorting
	kStart, kEnd int
	vStart       int
}

// value writes the value at offset i and returns the offset after it.
func (s *keySorter) value(i int) (int, error) {
	if i >= len(s.b) {
		return 0, errors.New("sortKeys: value expected")
	}
	switch s.b[i] {
	case '{':
		return s.object(i)
	case '[':
		end := s.closing[i]
		s.out = append(s.out, '[')
		j := i + 1
		for j < end {
			next, err := s.value(j)
			if err != nil {
				return 0, err
			}
			j = next
			if j < end && s.b[j] == ',' {
				s.out = append(s.out, ',')
				j++
			}
		}
		s.out = append(s.out, ']')
		return end + 1, nil
	case '"':
		end, err := stringEnd(s.b, i)
		if err != nil {
			return 0, err
		}
		s.out = append(s.out, s.b[i:end]...)
		return end, nil
	}
	end, err := s.skip(i)
	if err != nil {
		return 0, err
	}
	s.out = append(s.out, s.b[i:end]...)
	return end, nil
}

// object writes the object at offset i with its keys sorted.
func (s *keySorter) object(i int) (int, error) {
	end := s.closing[i]
	var members []member
	j := i + 1
	for j < end {
		kEnd, err := stringEnd(s.b, j)
		if err != nil {
			return 0, err
		}
		var key string
		if err := json.Unmarshal(s.b[j:kEnd], &key); err != nil {
			return 0, err
		}
		m := member{key: key, kStart: j, kEnd: kEnd, vStart: kEnd + 1}
		members = append(members, m)
		j, err = s.skip(m.vStart)
		if err != nil {
			return 0, err
		}
		if j < end && s.b[j] == ',' {
			j++
		}
	}
	if len(members) > 1 {
		slices.SortStableFunc(members, func(a, b member) int {
			switch {
			case a.key < b.key:
				return -1
			case a.key > b.key:
				return 1
			}
			return 0
		})
		// A key repeated keeps its last value, as decoding does.
		kept := members[:0]
		for n, m := range members {
			if n+1 < len(members) && members[n+1].key == m.key {
				continue
			}
			kept = append(kept, m)
		}
		members = kept
	}
	s.out = append(s.out, '{')
	for n, m := range members {
		if n > 0 {
			s.out = append(s.out, ',')
		}
		s.out = append(s.out, s.b[m.kStart:m.kEnd]...)
		s.out = append(s.out, ':')
		if _, err := s.value(m.vStart); err != nil {
			return 0, err
		}
	}
	s.out = append(s.out, '}')
	return end + 1, nil
}

// skip returns the offset after the value at i, without writing it.
func (s *keySorter) skip(i int) (int, error) {
	if i >= len(s.b) {
		return 0, errors.New("sortKeys: value expected")
	}
	switch s.b[i] {
	case '{', '[':
		return s.closing[i] + 1, nil
	case '"':
		return stringEnd(s.b, i)
	}
	end := i
	for end < len(s.b) && s.b[end] != ',' && s.b[end] != ']' && s.b[end] != '}' {
		end++
	}
	return end, nil
}
