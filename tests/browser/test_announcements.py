"""Announcements: platform-messages' notices for the app's client id, fetched on load and shown
within 2 s of an operator's change without a reload (MQTT over WebSocket); Markdown links only
with safe schemes."""

from playwright.sync_api import expect

from services import CLIENT_ID


def _post(platform, body):
    token = platform.token("platform-messages", "operator", ["platform:messages:manage"])
    return platform.call("POST", f"{platform.messages.base}/api/v1/clients/{CLIENT_ID}/messages", body, token)


def _delete(platform, message_id):
    token = platform.token("platform-messages", "operator", ["platform:messages:manage"])
    platform.call("DELETE", f"{platform.messages.base}/api/v1/clients/{CLIENT_ID}/messages/{message_id}", None, token)



def test_an_operators_announcement_appears_within_2_s(web, platform):
    web.goto("/")
    page = web.page
    page.evaluate("window.__same = true")
    expect(page.locator("#announcements")).to_have_attribute("data-live", "on")
    message = _post(platform, {
        "title": "Odstávka",
        "text": "V noci **nepůjde** podávat. [Podrobnosti](https://city.example/outage)",
        "kind": "maintenance",
    })
    try:
        box = page.locator(f'#announcements [data-message="{message["id"]}"]')
        expect(box).to_be_visible(timeout=2000)
        expect(box.locator("strong")).to_have_text("nepůjde")
        expect(box.locator("a")).to_have_attribute("href", "https://city.example/outage")
        assert page.evaluate("window.__same === true"), "the page reloaded"
        web.check("announcement")
    finally:
        _delete(platform, message["id"])
    expect(page.locator(f'#announcements [data-message="{message["id"]}"]')).to_have_count(0, timeout=2000)


def test_announcements_are_fetched_on_load(web, platform):
    message = _post(platform, {"text": "Vítejte v *novém* portálu."})
    try:
        web.goto("/")
        expect(web.page.locator(f'#announcements [data-message="{message["id"]}"] em')).to_have_text("novém")
    finally:
        _delete(platform, message["id"])


def test_markdown_links_keep_only_safe_schemes(web):
    """The renderer itself (the server refuses unsafe text on write, so no announcement carries it)."""
    web.goto("/")
    links = web.page.evaluate("""async () => {
        const { renderMarkdown } = await import(document.querySelector('link[data-module=markdown]').href);
        const box = document.createElement('div');
        box.append(renderMarkdown(
          '[a](https://x.example/) [b](http://x.example/) [c](mailto:a@x.example) [d](tel:+420123)' +
          ' [e](/reports/1) [f](javascript:alert(1)) [g](data:text/html,x) [h](//evil.example/) <b>i</b>'));
        return { hrefs: [...box.querySelectorAll('a')].map(a => a.getAttribute('href')),
                 text: box.textContent, tags: box.querySelectorAll('b').length };
    }""")
    assert links["hrefs"] == ["https://x.example/", "http://x.example/", "mailto:a@x.example", "tel:+420123", "/reports/1"]
    assert "f" in links["text"] and "<b>i</b>" in links["text"] and links["tags"] == 0
