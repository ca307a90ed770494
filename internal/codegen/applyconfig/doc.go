// Package applyconfig writes typed apply configurations: for each named
// struct type T of an API package, a type TApplyConfiguration in a
// separate package whose fields are all optional (pointers, nil slices
// and maps) and tagged omitempty, so that encoding one sends exactly the
// fields that were set. That is what server-side apply needs: a
// controller sends the fields it owns and nothing else, and the server
// records it as their manager.
//
// Each type gets a constructor named after T returning an empty value,
// With methods that set a field (appending to lists, merging into maps)
// and return the receiver for chaining, and, for the kinds (root types),
// a constructor taking the name (and namespace) that also sets
// apiVersion and kind, GetName, GetNamespace and IsApplyConfiguration,
// which make it a client.ApplyConfiguration:
//
//	cfg := applyconfig.Widget("w1", "shop").
//		WithLabels(map[string]string{"app": "shop"}).
//		WithSpec(applyconfig.WidgetSpec().WithSize(3))
//	w, err := widgets.Apply(ctx, cfg, client.ApplyOptions{FieldManager: "widget-controller"})
//
// Field types map as follows: numbers, strings, booleans, and types that
// encode themselves (metav1.Time, resource.Quantity, intstr.IntOrString,
// runtime.RawExtension) become pointers to themselves; structs become
// pointers to their apply configurations (those of another package when
// it has an applyconfig package, else the struct itself); lists and maps
// keep their shape with apply configurations as elements. Embedded
// structs stay embedded, and the With methods of their fields are
// repeated on the outer type so that a chain keeps its type.
//
// An Emitter is not safe for concurrent use.
package applyconfig
