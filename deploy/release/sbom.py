#!/usr/bin/env python3
"""CycloneDX 1.5 SBOM of a Preflight build from SwiftPM's own dependency graph.

Usage: swift package show-dependencies --format json | deploy/release/sbom.py VERSION > preflight.cdx.json

Every package in the graph becomes a component (name, version, purl pkg:swift/HOST/OWNER/NAME@VERSION,
its repository URL) and the graph's edges become CycloneDX dependencies, so the document lists
every dependency and its version exactly as SwiftPM resolved them for this build.
"""
import json
import re
import sys
import uuid
from datetime import datetime, timezone


def purl(package):
    url = package.get("url", "")
    match = re.match(r"^(?:https?://|git@)([^/:]+)[/:](.+?)(?:\.git)?/?$", url)
    version = package.get("version", "unspecified")
    if match:
        return f"pkg:swift/{match.group(1)}/{match.group(2)}@{version}"
    return f"pkg:swift/{package['identity']}@{version}"


def walk(package, components, edges):
    ref = purl(package)
    edges.setdefault(ref, set())
    for child in package.get("dependencies", []):
        edges[ref].add(purl(child))
        if purl(child) not in components:
            components[purl(child)] = child
            walk(child, components, edges)
        else:
            edges.setdefault(purl(child), set())


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    version = sys.argv[1]
    root = json.load(sys.stdin)
    root = dict(root, version=version)
    components, edges = {}, {}
    walk(root, components, edges)
    root_ref = purl(root)
    document = {
        "bomFormat": "CycloneDX",
        "specVersion": "1.5",
        "serialNumber": f"urn:uuid:{uuid.uuid4()}",
        "version": 1,
        "metadata": {
            "timestamp": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "component": {"type": "application", "bom-ref": root_ref, "name": "preflight",
                          "version": version, "purl": root_ref},
        },
        "components": [
            {"type": "library", "bom-ref": ref, "name": p.get("name", p["identity"]),
             "version": p.get("version", "unspecified"), "purl": ref,
             "externalReferences": [{"type": "vcs", "url": p["url"]}] if p.get("url") else []}
            for ref, p in sorted(components.items())
        ],
        "dependencies": [{"ref": ref, "dependsOn": sorted(deps)} for ref, deps in sorted(edges.items())],
    }
    json.dump(document, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
