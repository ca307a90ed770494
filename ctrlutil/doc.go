// Package ctrlutil has the small helpers a Reconcile is written with:
// owner references, finalizers, and writes that read from the cache and
// send only what changed.
//
//	cm, op, err := ctrlutil.CreateOrUpdate(ctx, configMaps, cmCache, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}},
//		func(cm *corev1.ConfigMap) error {
//			cm.Data = map[string]string{"color": w.Spec.Color}
//			return ctrlutil.SetControllerReference(w, cm)
//		})
//	w, _, err = ctrlutil.Patch(ctx, widgets, w, func(w *v1.Widget) error {
//		ctrlutil.AddFinalizer(w, "example.com/cleanup")
//		w.Status.ObservedGeneration = w.Generation
//		return nil
//	})
//
// # Writes
//
// CreateOrUpdate, CreateOrPatch and Patch start from the object as the
// cache holds it (CreateOrUpdate and CreateOrPatch fall back to a GET
// when the cache does not hold it), let a mutate function change a copy,
// and write nothing when the copy equals the original: a reconcile that
// finds the world as it wants it sends no request. Every write carries
// the resourceVersion it started from (Update does by nature, patches as
// a precondition), so a decision taken on a stale cache fails with
// client.ErrConflict instead of overwriting a change it never saw; the
// controller retries, and with controller.Options.ReadYourWrites its
// next read sees at least its own writes (every write made with the
// Reconcile's ctx counts, the helpers' included). Patch and CreateOrPatch send RFC 7386 merge patches,
// and send a change of .status to the status subresource (with the rest of
// the object for kinds that have none).
//
// # Ownership
//
// SetControllerReference makes one object the controller of another,
// which the garbage collector and controller.Owns both follow; it
// refuses a second controller with ErrAlreadyOwned; IsControlledBy tells
// a Reconcile whether an object it found by name is its own to change
// (sample-controller's metav1.IsControlledBy check). Finalizer helpers
// change an object's own copy of the list, never a cached slice.
//
// # Conditions
//
// SetStatusCondition, RemoveStatusCondition, FindStatusCondition and
// IsStatusConditionTrue/False are k8s.io/apimachinery's meta helpers for
// a status's []metav1.Condition. SetStatusCondition moves the last
// transition time only when the status changes, so a Reconcile may set
// its conditions every time inside Patch: when nothing changed, nothing
// is sent.
//
//	w, _, err = ctrlutil.Patch(ctx, widgets, w, func(w *v1.Widget) error {
//		ctrlutil.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Ready",
//			Status: metav1.ConditionTrue, Reason: "ConfigMapWritten", ObservedGeneration: w.Generation})
//		return nil
//	})
//
// # Concurrency
//
// The functions keep no state and are safe for concurrent use; they
// modify only the object they are given (never a cache's object, which
// they copy first) and block only for the requests they send.
package ctrlutil
