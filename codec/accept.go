package codec

import (
	"slices"
	"strconv"
	"strings"
)

// Accept header values for the usual requests. Every read of a built-in
// kind should offer JSON after protobuf: custom resources and aggregated
// APIs serve JSON only, and the server picks the first type it can serve.
const (
	// AcceptProtobufOrJSON prefers protobuf and falls back to JSON.
	AcceptProtobufOrJSON = MediaTypeProtobuf + ", " + MediaTypeJSON
	// AcceptTable asks for a meta.k8s.io/v1 Table and falls back to the
	// plain object, as the API concepts page recommends for clients that
	// must work with every resource.
	AcceptTable = MediaTypeJSON + ";as=Table;g=meta.k8s.io;v=v1, " + MediaTypeJSON
)

// AcceptRange is one element of an Accept header: a media range and its
// weight, the q parameter in thousandths (1000 for q=1, the default; 0
// means "not acceptable"). The q parameter is not kept in Params.
type AcceptRange struct {
	MediaType
	Weight int
}

// String formats r as an Accept list element, adding ";q=" when Weight is
// not 1000.
func (r AcceptRange) String() string {
	var b strings.Builder
	r.appendTo(&b)
	return b.String()
}

func (r AcceptRange) appendTo(b *strings.Builder) {
	r.MediaType.appendTo(b)
	if r.Weight == 1000 {
		return
	}
	w := min(max(r.Weight, 0), 1000)
	q := strings.TrimRight(strconv.Itoa(1000 + w)[1:], "0")
	if w == 1000 {
		b.WriteString(";q=1")
	} else if q == "" {
		b.WriteString(";q=0")
	} else {
		b.WriteString(";q=0." + q)
	}
}

// ParseAccept parses an Accept header value into its media ranges, sorted
// by weight, highest first; ranges of equal weight keep the client's order
// (kube-apiserver serves the first one it supports). Empty list elements
// are allowed, as RFC 9110 requires; an empty header gives no ranges,
// meaning anything is acceptable. Malformed ranges, `*/json`, and q values
// outside RFC 9110's grammar (at most three decimals, not above 1) are
// errors matching ErrMalformed. A parameter with an empty value
// (`application/json;stream=`) is dropped, as kube-apiserver does; an
// empty q therefore leaves the weight at 1.
func ParseAccept(s string) ([]AcceptRange, error) {
	p := mtParser{s: s, what: "accept header"}
	var out []AcceptRange
	for {
		p.skipOWS()
		if p.i == len(s) {
			break
		}
		if s[p.i] == ',' {
			p.i++
			continue
		}
		m, w, err := p.mediaType(true)
		if err != nil {
			return nil, err
		}
		if m.Type == "*" && m.Subtype != "*" {
			return nil, p.fail("%q is not a media range", m.Essence())
		}
		out = append(out, AcceptRange{MediaType: m, Weight: w})
	}
	slices.SortStableFunc(out, func(a, b AcceptRange) int { return b.Weight - a.Weight })
	return out, nil
}

// FormatAccept joins media ranges into an Accept header value, most
// preferred first, without q values: `application/vnd.kubernetes.protobuf,
// application/json`.
func FormatAccept(types ...MediaType) string {
	var b strings.Builder
	for i, t := range types {
		if i > 0 {
			b.WriteString(", ")
		}
		t.appendTo(&b)
	}
	return b.String()
}

// AcceptFor returns the Accept header for a read: protobuf (when protobuf
// is true) then JSON, each converted to the meta.k8s.io/v1 kind as when as
// is not empty (AsTable, AsPartialObjectMetadata,
// AsPartialObjectMetadataList), and then plain JSON as the last fallback
// for servers that cannot convert. With as set, the response may therefore
// be the unconverted object: check its kind.
//
//	AcceptFor(true, "")  == "application/vnd.kubernetes.protobuf, application/json"
//	AcceptFor(false, AsTable) == "application/json;as=Table;g=meta.k8s.io;v=v1, application/json"
func AcceptFor(protobuf bool, as string) string {
	types := make([]MediaType, 0, 3)
	jsonType := MediaType{Type: "application", Subtype: "json"}
	if protobuf {
		types = append(types, MediaType{Type: "application", Subtype: "vnd.kubernetes.protobuf"})
	}
	types = append(types, jsonType)
	if as != "" {
		for i := range types {
			types[i] = types[i].As(as)
		}
		types = append(types, jsonType)
	}
	return FormatAccept(types...)
}

// Negotiate picks the offer to serve for the Accept ranges accept, as
// kube-apiserver does: ranges are taken in order (ParseAccept's order:
// weight, then the client's order), and the first offer the range Matches
// is chosen unless the most specific range matching that offer has weight
// 0. No ranges accept the first offer. It reports false when nothing is
// acceptable (a 406).
func Negotiate(accept []AcceptRange, offers []MediaType) (MediaType, bool) {
	if len(offers) == 0 {
		return MediaType{}, false
	}
	if len(accept) == 0 {
		return offers[0], true
	}
	for _, r := range accept {
		if r.Weight <= 0 {
			continue
		}
		for _, o := range offers {
			if r.Matches(o) && weightFor(accept, o) > 0 {
				return o, true
			}
		}
	}
	return MediaType{}, false
}

// weightFor is the weight of the most specific range that matches offer.
func weightFor(accept []AcceptRange, offer MediaType) int {
	best, weight := -1, 0
	for _, r := range accept {
		if s := r.specificity(); s > best && r.Matches(offer) {
			best, weight = s, r.Weight
		}
	}
	return weight
}

// mtParser reads media types from s, starting at i.
type mtParser struct {
	s    string
	i    int
	what string
}

func (p *mtParser) fail(format string, args ...any) error {
	in := p.s
	if len(in) > 80 {
		in = in[:80] + "..."
	}
	return malformed(p.what, int64(p.i), nil, "%q: "+format, append([]any{in}, args...)...)
}

func (p *mtParser) skipOWS() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *mtParser) token(what string) (string, error) {
	start := p.i
	for p.i < len(p.s) && isTChar(p.s[p.i]) {
		p.i++
	}
	if p.i == start {
		if p.i == len(p.s) {
			return "", p.fail("missing %s", what)
		}
		return "", p.fail("unexpected %q where a %s should be", p.s[p.i], what)
	}
	return p.s[start:p.i], nil
}

// mediaType reads `type/subtype *(OWS ";" OWS [name=value])`. In an
// Accept header (accept true) it stops before a ',' and takes q out of the
// parameters as the weight.
func (p *mtParser) mediaType(accept bool) (MediaType, int, error) {
	var m MediaType
	var err error
	if m.Type, err = p.token("type"); err != nil {
		return MediaType{}, 0, err
	}
	if p.i == len(p.s) || p.s[p.i] != '/' {
		return MediaType{}, 0, p.fail("missing \"/\" after the type")
	}
	p.i++
	if m.Subtype, err = p.token("subtype"); err != nil {
		return MediaType{}, 0, err
	}
	m.Type, m.Subtype = strings.ToLower(m.Type), strings.ToLower(m.Subtype)
	weight, haveQ := 1000, false
	for {
		p.skipOWS()
		if p.i == len(p.s) || (accept && p.s[p.i] == ',') {
			return m, weight, nil
		}
		if p.s[p.i] != ';' {
			return MediaType{}, 0, p.fail("unexpected %q, want \";\"", p.s[p.i])
		}
		p.i++
		p.skipOWS()
		if p.i == len(p.s) || p.s[p.i] == ';' || (accept && p.s[p.i] == ',') {
			continue // an empty parameter, allowed by RFC 9110
		}
		name, err := p.token("parameter name")
		if err != nil {
			return MediaType{}, 0, err
		}
		name = strings.ToLower(name)
		if p.i == len(p.s) || p.s[p.i] != '=' {
			return MediaType{}, 0, p.fail("parameter %q has no \"=value\" (no spaces are allowed around \"=\")", name)
		}
		p.i++
		if accept && p.emptyValue() {
			continue // kube-apiserver ignores `name=` in an Accept range
		}
		value, err := p.paramValue(name)
		if err != nil {
			return MediaType{}, 0, err
		}
		if accept && name == "q" {
			if haveQ {
				return MediaType{}, 0, p.fail("duplicate q parameter")
			}
			haveQ = true
			if weight, err = p.qvalue(value); err != nil {
				return MediaType{}, 0, err
			}
			continue
		}
		for _, q := range m.Params {
			if q.Name == name {
				return MediaType{}, 0, p.fail("duplicate parameter %q", name)
			}
		}
		m.Params = append(m.Params, Param{Name: name, Value: value})
	}
}

// emptyValue reports whether a parameter value ends before it starts:
// `;name=` followed by the end, ";", "," or whitespace.
func (p *mtParser) emptyValue() bool {
	if p.i == len(p.s) {
		return true
	}
	switch p.s[p.i] {
	case ';', ',', ' ', '\t':
		return true
	}
	return false
}

func (p *mtParser) paramValue(name string) (string, error) {
	if p.i < len(p.s) && p.s[p.i] == '"' {
		return p.quotedString()
	}
	if p.i == len(p.s) || !isTChar(p.s[p.i]) {
		return "", p.fail("parameter %q has an empty value (no spaces are allowed around \"=\")", name)
	}
	return p.token("parameter value")
}

// quotedString reads an RFC 9110 quoted-string and returns its content
// with quoted-pairs resolved.
func (p *mtParser) quotedString() (string, error) {
	p.i++ // opening quote
	start := p.i
	var b []byte // only when there is a backslash
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			if b == nil {
				return p.s[start : p.i-1], nil
			}
			return string(b), nil
		case c == '\\':
			if b == nil {
				b = append([]byte(nil), p.s[start:p.i]...)
			}
			p.i++
			if p.i == len(p.s) {
				return "", p.fail("unterminated quoted string")
			}
			if c := p.s[p.i]; c != '\t' && (c < 0x20 || c == 0x7f) {
				return "", p.fail("control character %q in a quoted string", c)
			}
			b = append(b, p.s[p.i])
		case c != '\t' && (c < 0x20 || c == 0x7f):
			return "", p.fail("control character %q in a quoted string", c)
		default:
			if b != nil {
				b = append(b, c)
			}
		}
		p.i++
	}
	return "", p.fail("unterminated quoted string")
}

// qvalue parses RFC 9110's `0[.ddd]` or `1[.000]` into thousandths.
func (p *mtParser) qvalue(v string) (int, error) {
	bad := func() (int, error) {
		return 0, p.fail("invalid q value %q (want 0 to 1 with at most three decimals)", v)
	}
	if v == "" || (v[0] != '0' && v[0] != '1') || len(v) > 5 || (len(v) > 1 && v[1] != '.') {
		return bad()
	}
	w := int(v[0]-'0') * 1000
	if len(v) > 2 {
		scale := 100
		for _, c := range []byte(v[2:]) {
			if c < '0' || c > '9' {
				return bad()
			}
			w += int(c-'0') * scale
			scale /= 10
		}
	}
	if w > 1000 {
		return bad()
	}
	return w, nil
}
