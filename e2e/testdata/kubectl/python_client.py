"""The official Python client against a kubeconfig: list, create, patch,
watch and delete ConfigMaps. Prints one line per check; exits 1 on the
first failure."""
import sys

from kubernetes import client, config, watch


def main(kubeconfig):
    config.load_kube_config(config_file=kubeconfig)
    v1 = client.CoreV1Api()
    names = [n.metadata.name for n in v1.list_namespace().items]
    assert "default" in names, names
    print("ok: listed namespaces")

    start = v1.list_namespaced_config_map("default").metadata.resource_version
    v1.create_namespaced_config_map("default", client.V1ConfigMap(
        metadata=client.V1ObjectMeta(name="py-1", labels={"from": "python"}), data={"k": "v"}))
    print("ok: created")
    got = v1.patch_namespaced_config_map("py-1", "default", {"data": {"k": "v2"}})
    assert got.data["k"] == "v2", got.data
    print("ok: patched")

    events = []
    w = watch.Watch()
    for ev in w.stream(v1.list_namespaced_config_map, "default", resource_version=start,
                       label_selector="from=python", timeout_seconds=5):
        events.append((ev["type"], ev["object"].metadata.name))
        if len(events) == 2:
            w.stop()
    assert events == [("ADDED", "py-1"), ("MODIFIED", "py-1")], events
    print("ok: watched", events)

    v1.delete_namespaced_config_map("py-1", "default")
    left = v1.list_namespaced_config_map("default", label_selector="from=python").items
    assert not left, left
    print("ok: deleted")
    print("PASS")


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except Exception as e:  # report any failure on one line
        print("FAIL:", type(e).__name__, e)
        sys.exit(1)
