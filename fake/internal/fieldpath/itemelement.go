package fieldpath

// ItemElement is the path element of an associative list's item (t is
// the list's type), or false when the item cannot be addressed.
func (t *Type) ItemElement(item any) (PathElement, bool) { return itemElement(t, item) }
