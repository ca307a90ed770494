package fake

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/kubewire/kubewire/fake/internal/apierr"
)

// checkURLName refuses an updated or patched object whose name is not
// the one on the URL, in kube-apiserver's words (a 400): an object left
// without a name cannot be matched to the URL at all.
func checkURLName(objName, urlName string) *apierr.Error {
	if objName == "" {
		return apierr.BadRequest(fmt.Sprintf("the name of the object (%s based on URL) was undeterminable: name must be provided", urlName))
	}
	if objName != urlName {
		return apierr.BadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", objName, urlName))
	}
	return nil
}

// writtenResourceVersion reads the resource version an update or a
// patched object names, as kube-apiserver's storage reads it before
// comparing it with the stored one: 0 for none (or "0"), and a 500 with
// the number parser's words for one that is not a number.
func writtenResourceVersion(rv string) (uint64, *apierr.Error) {
	if rv == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return 0, apierr.New(http.StatusInternalServerError, "", err.Error(), nil)
	}
	return n, nil
}
