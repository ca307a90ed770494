package conformance

// WidgetDefinition is the CustomResourceDefinition of the custom resource
// Target.Widgets names: kind Widget, group example.com, version v1,
// namespaced, a spec that keeps any field, other unknown fields pruned,
// and a status subresource. Every target defines Widget with it, so that
// the scenarios meet the same schema on each.
const WidgetDefinition = `{
  "apiVersion": "apiextensions.k8s.io/v1",
  "kind": "CustomResourceDefinition",
  "metadata": {"name": "widgets.example.com"},
  "spec": {
    "group": "example.com",
    "scope": "Namespaced",
    "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
    "versions": [{
      "name": "v1", "served": true, "storage": true,
      "schema": {"openAPIV3Schema": {
        "type": "object",
        "properties": {"spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}
      }},
      "subresources": {"status": {}}
    }]
  }
}`
