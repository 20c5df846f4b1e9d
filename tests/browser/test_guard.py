"""The suite's own guard, so the guard every test relies on can fail: a request to a host other
than loopback is seen, and the page's CSP refuses one from the page itself (and is reported)."""

from playwright.sync_api import Error

from conftest import Guarded


def test_a_request_leaving_loopback_is_caught(browser, platform):
    context = browser.new_context()
    page = context.new_page()
    guarded = Guarded(page, platform)
    page.goto(f"{platform.url}/")
    with page.expect_console_message(lambda m: "Content Security Policy" in m.text):
        page.evaluate("() => { const i = new Image(); i.src = 'http://example.invalid/x.png'; }")
    assert guarded.csp, "the page's CSP refused nothing"
    try:
        page.goto("http://example.invalid/", timeout=5000)
    except Error:
        pass  # the name does not resolve; the request was still made
    context.close()
    assert "http://example.invalid/" in guarded.foreign, guarded.foreign
