"""The CAPTCHA of anonymous filings: with a site key, the form loads the widget's script (a
reCAPTCHA-v3-compatible stand-in on loopback, as the CAPTCHA is a third party) and sends its
token, which citizen-api verifies with the stand-in's siteverify; the CSP allows the widget's
origin then and only then. Signed in, no widget and no token."""

import json
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

import services
from conftest import Guarded
from helpers import dev_token, get, signed_in

TOKEN = "browser-suite-captcha-token"
SECRET = "browser-suite-captcha-secret"
SITE_KEY = "browser-suite-site-key"

WIDGET = """window.grecaptcha = {
  ready(callback) { callback(); },
  execute(siteKey, options) {
    window.__captcha = { siteKey, action: options.action };
    return Promise.resolve('%s');
  },
};""" % TOKEN


class StandIn(BaseHTTPRequestHandler):
    verified = []

    def log_message(self, *args):
        pass

    def do_GET(self):
        if urllib.parse.urlsplit(self.path).path != "/captcha.js":
            self.send_error(404)
            return
        body = WIDGET.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/javascript")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        form = urllib.parse.parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
        StandIn.verified.append(form.get("response", [""])[0])
        ok = form.get("secret") == [SECRET] and form.get("response") == [TOKEN]
        body = json.dumps({"success": ok, "action": "report", "hostname": "127.0.0.1"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def captcha_city(platform):
    server = ThreadingHTTPServer(("127.0.0.1", 0), StandIn)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    citizen = services.start_citizen(platform, "citizen-captcha", {
        "CITIZEN_API__CAPTCHA__ENABLED": "true",
        "CITIZEN_API__CAPTCHA__SECRET": SECRET,
        "CITIZEN_API__CAPTCHA__VERIFY_URL": f"{origin}/siteverify",
        "CITIZEN_API__CAPTCHA__EXPECTED_ACTION": "report",
        "CITIZEN_API__WEB__CAPTCHA_SITE_KEY": SITE_KEY,
        "CITIZEN_API__WEB__CAPTCHA_SCRIPT_URL": f"{origin}/captcha.js",
        "CITIZEN_API__WEB__CAPTCHA_ORIGINS": origin,
    })
    yield citizen, origin
    citizen.process.terminate()
    citizen.process.wait(timeout=20)
    server.shutdown()


@pytest.fixture
def captcha_web(browser, platform, captcha_city):
    citizen, _ = captcha_city
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="cs-CZ")
    page = context.new_page()
    page.set_default_timeout(15000)

    class Here:  # the guarded page, pointed at the CAPTCHA city's citizen-api
        url = citizen.base

    guarded = Guarded(page, Here)
    yield guarded
    context.close()
    assert not guarded.foreign, f"requests left loopback: {guarded.foreign}"
    assert not guarded.csp, f"Content-Security-Policy violations: {guarded.csp}"


def _file(web, title):
    page = web.page
    page.click("#file-open")
    page.fill("#coordinates", "50.0875, 14.4213")
    page.locator("#coordinates").dispatch_event("change")
    page.fill("#title", title)
    page.fill("#description", "Podáno přes CAPTCHA.")
    page.click("#send")
    expect(page.locator("#filing")).to_be_hidden()


def test_an_anonymous_filing_carries_the_widgets_token(captcha_web, captcha_city):
    citizen, origin = captcha_city
    web = captcha_web
    response = web.page.goto(f"{citizen.base}/")
    csp = response.headers["content-security-policy"]
    assert f"script-src 'self' {origin};" in csp and f"frame-src {origin};" in csp, csp
    web.page.wait_for_selector("body[data-ready=true]", state="attached")
    StandIn.verified.clear()
    _file(web, "Posprejovaná zastávka")
    assert web.page.evaluate("window.__captcha") == {"siteKey": SITE_KEY, "action": "report"}
    assert StandIn.verified == [TOKEN], StandIn.verified
    rows = get(f"{citizen.base}/api/v1/reports?q=Posprejovan%C3%A1&limit=10")["reports"]
    assert [r["title"] for r in rows] == ["Posprejovaná zastávka"]
    web.check("filing-captcha")


def test_signed_in_no_widget_is_loaded(captcha_web, captcha_city):
    citizen, _ = captcha_city
    web = captcha_web
    token = dev_token(type("P", (), {"citizen": citizen})(), "captcha-citizen")
    signed_in(web, token, "captcha-citizen")
    StandIn.verified.clear()
    _file(web, "Přihlášený bez CAPTCHA")
    assert web.page.evaluate("typeof window.grecaptcha") == "undefined"
    assert StandIn.verified == []
