package fake

import (
	"fmt"

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
