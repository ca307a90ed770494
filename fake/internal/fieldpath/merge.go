package fieldpath

// Merge merges an applied configuration (rhs) into a live object (lhs) as
// server-side apply does: objects merge key by key, associative lists
// item by item (keeping the live order and placing applied items in the
// applied order), and everything else, atomic objects and lists
// included, is replaced by the applied value. The result shares no maps
// or slices with the inputs.
func Merge(lhs, rhs any, t *Type) any {
	return merge(lhs, true, rhs, true, t)
}

func merge(lhs any, lok bool, rhs any, rok bool, t *Type) any {
	if !rok {
		return DeepCopy(lhs)
	}
	if !lok {
		return DeepCopy(rhs)
	}
	lt, rt := resolve(t, lhs), resolve(t, rhs)
	if lt.Kind != rt.Kind {
		return DeepCopy(rhs)
	}
	switch rt.Kind {
	case Object:
		lm, _ := lhs.(map[string]any)
		rm, _ := rhs.(map[string]any)
		if rt.Atomic || (len(lm) == 0 && len(rm) == 0) {
			return DeepCopy(rhs)
		}
		out := make(map[string]any, len(lm)+len(rm))
		for k, lv := range lm {
			rv, ok := rm[k]
			out[k] = merge(lv, true, rv, ok, rt.fieldOrElem(k))
		}
		for k, rv := range rm {
			if _, ok := lm[k]; !ok {
				out[k] = DeepCopy(rv)
			}
		}
		return out
	case List:
		ll, _ := lhs.([]any)
		rl, _ := rhs.([]any)
		if !rt.associative() || (len(ll) == 0 && len(rl) == 0) {
			return DeepCopy(rhs)
		}
		return mergeLists(ll, rl, rt)
	}
	return DeepCopy(rhs)
}

// mergeLists merges associative lists. Live items keep their place;
// applied items that are live too are emitted in the applied order; new
// applied items follow the applied item before them.
func mergeLists(ll, rl []any, t *Type) any {
	lEl := elements(t, ll)
	rEl := elements(t, rl)
	rIndex := make(map[PathElement]any, len(rl))
	for i, e := range rEl {
		if e != "" {
			if _, dup := rIndex[e]; !dup {
				rIndex[e] = rl[i]
			}
		}
	}
	lIndex := make(map[PathElement]any, len(ll))
	for i, e := range lEl {
		if e != "" {
			if _, dup := lIndex[e]; !dup {
				lIndex[e] = ll[i]
			}
		}
	}
	// shared lists, in applied order, the items both sides have.
	var shared []PathElement
	for _, e := range rEl {
		if _, ok := lIndex[e]; ok && e != "" {
			shared = append(shared, e)
		}
	}
	nextShared := func() PathElement {
		if len(shared) == 0 {
			return ""
		}
		e := shared[0]
		shared = shared[1:]
		return e
	}
	next := nextShared()
	done := map[PathElement]bool{}
	out := make([]any, 0, max(len(ll), len(rl)))
	emit := func(e PathElement) {
		lv, lok := lIndex[e]
		rv, rok := rIndex[e]
		out = append(out, merge(lv, lok, rv, rok, t.Elem))
	}
	li, ri := 0, 0
	for li < len(ll) || ri < len(rl) {
		if li < len(ll) && ri < len(rl) {
			le := lEl[li]
			if le == rEl[ri] && le != "" {
				done[le] = true
				emit(le)
				li++
				ri++
				next = nextShared()
				continue
			}
			if _, inR := rIndex[le]; inR && next != "" && next != le {
				li++
				continue
			}
		}
		if li < len(ll) {
			le := lEl[li]
			if _, inR := rIndex[le]; !inR || le == "" {
				out = append(out, DeepCopy(ll[li]))
				li++
				continue
			} else if done[le] {
				li++
			}
		}
		if ri < len(rl) {
			re := rEl[ri]
			if re == "" {
				out = append(out, DeepCopy(rl[ri]))
			} else if !done[re] {
				done[re] = true
				emit(re)
			}
			ri++
			if next != "" && next == re {
				next = nextShared()
			}
		}
	}
	return out
}

// elements returns the path element of each item ("" when it has none).
func elements(t *Type, list []any) []PathElement {
	out := make([]PathElement, len(list))
	for i, item := range list {
		if e, ok := itemElement(t, item); ok {
			out[i] = e
		}
	}
	return out
}
