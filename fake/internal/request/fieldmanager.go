package request

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kubewire/kubewire/fake/internal/apierr"
)

// maxFieldManager is the longest field manager kube-apiserver accepts.
const maxFieldManager = 128

// WriteManager is the field manager of a write: ?fieldManager=, else the
// program name of the User-Agent (what precedes the first "/", printable
// characters only, at most 128 bytes), as kube-apiserver picks it.
func WriteManager(req *http.Request) string {
	if m := req.URL.Query().Get("fieldManager"); m != "" {
		return m
	}
	prefix, _, _ := strings.Cut(req.UserAgent(), "/")
	var b bytes.Buffer
	for _, r := range prefix {
		if !unicode.IsPrint(r) {
			continue
		}
		if b.Len()+utf8.RuneLen(r) > maxFieldManager {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

// fieldManagerCauses validates ?fieldManager=.
func fieldManagerCauses(manager string) []apierr.Cause {
	var causes []apierr.Cause
	if len(manager) > maxFieldManager {
		causes = append(causes, apierr.Cause{Type: "FieldValueTooLong", Field: "fieldManager", Message: "Too long: may not be more than 128 bytes"})
	}
	for i, r := range manager {
		if !unicode.IsPrint(r) {
			causes = append(causes, apierr.Cause{Type: "FieldValueInvalid", Field: "fieldManager",
				Message: fmt.Sprintf("Invalid value: %q: invalid character %#U (at position %d)", manager, r, i)})
		}
	}
	return causes
}
