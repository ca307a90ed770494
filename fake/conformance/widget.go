package conformance

import "net/http"

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

// createWidget creates a Widget named c.name("w") with spec (none when
// nil), deleted when the scenario ends, and returns its name; a target
// without the Widget custom resource skips the scenario.
func (c *client) createWidget(spec map[string]any) string {
	c.t.Helper()
	if c.target.Widgets == "" {
		c.t.Skip("target has no Widget custom resource")
	}
	name := c.name("w")
	w := map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": name}}
	if spec != nil {
		w["spec"] = spec
	}
	c.expect(c.do(req{method: "POST", path: c.target.Widgets, body: w}), http.StatusCreated)
	c.t.Cleanup(func() { c.do(req{method: "DELETE", path: c.target.Widgets + "/" + name}) })
	return name
}
