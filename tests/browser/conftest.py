"""Fixtures of the browser suite (docs/web-app.md, "Browser suite"): the platform it starts, Debian's
Chromium driven by Playwright, a guard that fails any request leaving loopback, axe-core and the
screenshots."""

import base64
import json
import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import sync_playwright

import services

CHROMIUM = os.environ.get("BROWSER_CHROMIUM", "/usr/bin/chromium")
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
OUT = services.REPO / "target"
SHOTS = OUT / "browser-screenshots"
AXE_LOG = OUT / "browser-axe.jsonl"
SIZES = [(1280, 800), (360, 740)]
LOOPBACK = {"127.0.0.1", "localhost", "[::1]", "::1"}


def pytest_sessionstart(session):
    SHOTS.mkdir(parents=True, exist_ok=True)
    AXE_LOG.unlink(missing_ok=True)


@pytest.fixture(scope="session")
def platform():
    started = services.start()
    yield started
    services.cleanup(started)


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        args = ["--no-sandbox"] if os.geteuid() == 0 else []
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def jpeg(browser):
    """A real JPEG (drawn and encoded by the browser), for the photo inputs."""
    page = browser.new_page()
    data_url = page.evaluate(
        """() => { const c = document.createElement('canvas'); c.width = 64; c.height = 48;
        const g = c.getContext('2d'); g.fillStyle = '#c33'; g.fillRect(0, 0, 64, 48);
        g.fillStyle = '#fff'; g.fillRect(16, 12, 32, 24); return c.toDataURL('image/jpeg', 0.9); }"""
    )
    page.close()
    body = base64.b64decode(data_url.split(",", 1)[1])
    assert body[:3] == b"\xff\xd8\xff"
    return {"name": "pothole.jpg", "mimeType": "image/jpeg", "buffer": body}


class Guarded:
    """A page whose every request is checked: anything to a host other than loopback fails the
    test, as does a Content-Security-Policy violation reported on the console."""

    def __init__(self, page, platform):
        self.page = page
        self.platform = platform
        self.foreign = []
        self.csp = []
        page.on("request", self._request)
        page.on("websocket", lambda ws: self._url(ws.url))
        page.on("console", self._console)

    def _url(self, url):
        parts = urlsplit(url)
        if parts.scheme in ("data", "blob", "about"):
            return
        if parts.hostname not in LOOPBACK:
            self.foreign.append(url)

    def _request(self, request):
        self._url(request.url)

    def _console(self, message):
        if "Content Security Policy" in message.text:
            self.csp.append(message.text)

    def goto(self, path="/", language="cs"):
        self.page.goto(f"{self.platform.url}{path}")
        self.page.wait_for_selector("body[data-ready=true]", state="attached")
        if language != self.page.evaluate("document.documentElement.lang"):
            self.page.select_option("#language", language)

    def axe(self, state):
        """axe-core on the page as it is: no serious or critical violation."""
        if not self.page.evaluate("typeof window.axe === 'object'"):
            # Evaluated by the driver, not injected as a <script>: the page's CSP stays as it is.
            self.page.evaluate(AXE.read_text() + "\n;undefined")
        violations = self.page.evaluate(
            """async () => (await axe.run(document, { resultTypes: ['violations'] })).violations
            .map(v => ({ id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5) }))"""
        )
        width = self.page.viewport_size["width"]
        counts = {}
        for violation in violations:
            counts[violation["impact"]] = counts.get(violation["impact"], 0) + 1
        with AXE_LOG.open("a") as log:
            log.write(json.dumps({"state": state, "width": width, "counts": counts, "violations": violations}) + "\n")
        bad = [v for v in violations if v["impact"] in ("serious", "critical")]
        assert not bad, f"{state} at {width}px: {json.dumps(bad, indent=1)}"

    def no_stray_text(self, state):
        """No text of a value that was never meant to be shown ("null", "undefined", …): a
        missing part given to `append` or `replaceChildren` is written out as such a word."""
        stray = self.page.evaluate(
            """() => {
              const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
              const found = [];
              for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                if (node.parentElement?.closest("script, style, noscript")) continue;
                const text = node.textContent.trim();
                if (/^(null|undefined|NaN)$/.test(text) || /undefined|\\[object Object\\]/.test(text))
                  found.push(`${node.parentElement?.id || node.parentElement?.tagName}: ${text.slice(0, 80)}`);
              }
              return found;
            }"""
        )
        assert not stray, f"{state}: stray text {stray}"

    def check(self, state):
        """No stray text, then axe and a screenshot at each size (1280×800, 360×740), then back
        to the first size."""
        self.no_stray_text(state)
        for width, height in SIZES:
            self.page.set_viewport_size({"width": width, "height": height})
            self.page.evaluate("window.dispatchEvent(new Event('resize'))")
            self.axe(state)
            self.page.screenshot(path=SHOTS / f"{state}-{width}x{height}.png")
        self.page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})


def _open(browser, platform):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="cs-CZ")
    page = context.new_page()
    page.set_default_timeout(15000)
    return context, Guarded(page, platform)


def _closed(context, guarded):
    context.close()
    assert not guarded.foreign, f"requests left loopback: {guarded.foreign}"
    assert not guarded.csp, f"Content-Security-Policy violations: {guarded.csp}"


@pytest.fixture
def web(browser, platform):
    context, guarded = _open(browser, platform)
    yield guarded
    _closed(context, guarded)


@pytest.fixture
def another_web(browser, platform):
    """Opens one more browser context (another person) each call: two officers, a citizen."""
    opened = []

    def open_one():
        opened.append(_open(browser, platform))
        return opened[-1][1]

    yield open_one
    for context, guarded in opened:
        _closed(context, guarded)
