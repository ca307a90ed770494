package controller

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/kubewire/kubewire/codec"
)

// ErrCacheMutated is matched by the error of a Reconcile that changed
// the cache's object it was given, with Options.DetectCacheMutations.
var ErrCacheMutated = errors.New("reconcile changed the cache's object")

// detectKey marks the ctx of a Reconcile whose controller detects
// changes to cached objects.
type detectKey struct{}

func detecting(ctx context.Context) bool { return ctx.Value(detectKey{}) != nil }

// callDetecting calls fn with obj, the cache's object, and returns
// ErrCacheMutated (beside fn's own error) when fn changed it: obj is
// encoded before and after, which costs two encodings per Reconcile, an
// option for tests.
func callDetecting[T any](ctx context.Context, req Request, obj T, fn func(context.Context, T) (Result, error)) (Result, error) {
	before, encErr := codec.EncodeJSON(obj)
	res, err := fn(ctx, obj)
	if encErr != nil {
		return res, err
	}
	after, encErr := codec.EncodeJSON(obj)
	if encErr != nil || bytes.Equal(before, after) {
		return res, err
	}
	merr := fmt.Errorf("%w: %s changed in %s (DeepCopy the object before changing it, or use package ctrlutil's helpers, which copy)",
		ErrCacheMutated, strings.Join(changedFields(before, after), ", "), req)
	return res, errors.Join(err, merr)
}

// changedFields names up to five fields whose JSON differs between a
// and b ("data", "metadata.labels").
func changedFields(a, b []byte) []string {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return []string{"the object"}
	}
	var out []string
	var walk func(path string, x, y any, depth int)
	walk = func(path string, x, y any, depth int) {
		if len(out) == 5 || reflect.DeepEqual(x, y) {
			return
		}
		mx, okx := x.(map[string]any)
		my, oky := y.(map[string]any)
		if !okx || !oky || depth == 2 {
			out = append(out, path)
			return
		}
		keys := slices.Sorted(maps.Keys(mx))
		for k := range my {
			if _, ok := mx[k]; !ok {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			walk(p, mx[k], my[k], depth+1)
		}
	}
	walk("", va, vb, 0)
	if len(out) == 0 {
		return []string{"the object"}
	}
	return out
}
