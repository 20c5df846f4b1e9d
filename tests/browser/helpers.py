"""What several tests of the browser suite share: reading the platform's APIs directly, to compare
the page with them."""

import json
import urllib.parse
import urllib.request


def get(url: str, token: str | None = None):
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def api(platform, path: str, **params):
    query = urllib.parse.urlencode(params, doseq=True)
    return get(f"{platform.citizen.base}/api/v1{path}" + (f"?{query}" if query else ""))


def boundary_bbox(platform) -> str:
    """The box of the city's boundary (what the map pages the streets by)."""
    boundary = api(platform, "/geo/boundary")
    points = []

    def walk(node):
        if isinstance(node, list) and node and isinstance(node[0], (int, float)):
            points.append(node)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    geometries = [f["geometry"] for f in boundary.get("features", [])] if "features" in boundary else [boundary.get("geometry", boundary)]
    for geometry in geometries:
        walk(geometry["coordinates"])
    lons = [p[0] for p in points]
    lats = [p[1] for p in points]
    return f"{min(lons)},{min(lats)},{max(lons)},{max(lats)}"


def streets_in(platform, bbox: str) -> int:
    body = get(f"{platform.streets.base}/api/v1/collections/streets/items?bbox={bbox}&limit=10000")
    return len(body["features"])
