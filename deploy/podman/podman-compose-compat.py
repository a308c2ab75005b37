#!/usr/bin/python3
"""podman-compose 1.0.3 (Debian bookworm's) with what it lacks for docker-compose.yml.

npm run test:deploy runs the compose file through this when `podman-compose version` is older
than 1.0.4 (later releases reworked these parts). It patches, and only while it runs:

- a health check's `test: [CMD, ...]`: 1.0.3 joins the words into one broken shell line (the
  backend's and control plane's `node -e "fetch(...)"` fails as a shell syntax error, so they never
  turn healthy). Here it becomes the same words, quoted, as `CMD-SHELL`.
- `network_mode: service:<name>` (the sidecar and the identity provider share the backend's
  network namespace, as containers of one pod): 1.0.3 hands podman `--network service:<name>`,
  which podman does not know, plus the project network, which podman refuses next to a container
  namespace. Here it becomes `--network container:<that service's container>` alone, and the
  service is started after the one whose namespace it joins.

Everything else is Debian's podman_compose module, unchanged. Needs the system Python
(/usr/bin/python3), the one the Debian package installs the module for.
"""
import shlex

import podman_compose as pc


def _service_of(mode):
    return mode[len("service:"):] if isinstance(mode, str) and mode.startswith("service:") else None


_flat_deps = pc.flat_deps


def flat_deps(services, with_extends=False):
    # Start a service after the one whose network namespace it joins (and after all that one
    # waits for): a dependency like any other.
    for name, srv in services.items():
        joined = _service_of(srv.get("network_mode"))
        if joined and joined != name:
            deps = srv.get("depends_on") or []
            if isinstance(deps, str):
                deps = [deps]
            if isinstance(deps, dict):
                deps.setdefault(joined, {"condition": "service_started"})
            elif joined not in deps:
                deps = [*deps, joined]
            srv["depends_on"] = deps
    _flat_deps(services, with_extends)


_container_to_args = pc.container_to_args


def container_to_args(compose, cnt, detached=True):
    test = (cnt.get("healthcheck") or {}).get("test")
    if isinstance(test, list) and test[:1] == ["CMD"]:
        cnt = dict(cnt, healthcheck=dict(cnt["healthcheck"], test=["CMD-SHELL", shlex.join(test[1:])]))
    joined = _service_of(cnt.get("network_mode"))
    if joined:
        target = compose.container_names_by_service[joined][0]
        cnt = dict(cnt, network_mode=f"container:{target}")
    return _container_to_args(compose, cnt, detached)


_get_net_args = pc.get_net_args


def get_net_args(compose, cnt):
    # A container in another's network namespace joins no network of its own.
    return [] if cnt.get("network_mode") else _get_net_args(compose, cnt)


_assert_cnt_nets = pc.assert_cnt_nets


def assert_cnt_nets(compose, cnt):
    if not cnt.get("network_mode"):
        _assert_cnt_nets(compose, cnt)


pc.flat_deps = flat_deps
pc.container_to_args = container_to_args
pc.get_net_args = get_net_args
pc.assert_cnt_nets = assert_cnt_nets

if __name__ == "__main__":
    pc.main()
