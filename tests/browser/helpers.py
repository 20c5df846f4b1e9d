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


def post_json(url: str, body, token: str | None = None, method: str = "POST"):
    data = json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Accept": "application/json", "Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read()
        return json.loads(text) if text else None


def dev_token(platform, sub: str, email: str | None = None) -> str:
    """A citizen's token from the app's own dev sign-in (with an e-mail claim when given)."""
    body = {"sub": sub}
    if email:
        body["email"] = email
    return post_json(f"{platform.citizen.base}/dev/sign-in", body)["access_token"]


def signed_in(web, token: str, who: str, path: str = "/"):
    """Opens `path` signed in with `token`, as the page keeps a sign-in (sessionStorage)."""
    web.goto("/")
    web.page.evaluate(
        "([token, who]) => sessionStorage.setItem('citizen-app.token', JSON.stringify({token, expiresAt: null, who}))",
        [token, who],
    )
    web.goto(path)


def file_report(platform, token: str, title: str, lon: float, lat: float) -> str:
    """Files a report through the API (multipart, as the form sends it); its id."""
    boundary = "----browser-suite-boundary"
    parts = []
    for name, value in (("title", title), ("description", f"{title}: filed by the browser suite."), ("location", f"{lon},{lat}")):
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n')
    body = ("".join(parts) + f"--{boundary}--\r\n").encode()
    request = urllib.request.Request(
        f"{platform.citizen.base}/api/v1/reports", data=body, method="POST",
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}", "Authorization": f"Bearer {token}", "Accept": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["id"]


def until(check, what: str, timeout: float = 15.0):
    """Polls `check` (an API read) until it is truthy: the services' own workers run on their
    own clock in this suite, so a test waits for their result with a deadline, never a pause."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.1)  # between two reads of the API
