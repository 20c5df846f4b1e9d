"""My data: the export of everything the platform keeps about the citizen (a link that downloads
a ZIP) and the erasure of the account, asked twice; afterwards the citizen is signed out and
their vote no longer counts."""

import urllib.request

from playwright.sync_api import expect

from helpers import api, dev_token, get, post_json, signed_in


def test_export_then_erase(web, platform):
    token = dev_token(platform, "leaving-1")
    report = api(platform, "/reports", limit=1)["reports"][0]
    post_json(f"{platform.citizen.base}/api/v1/me/vote-tokens", {"target": report["id"], "count": 1}, token)
    votes = api(platform, f"/reports/{report['id']}")["votes_count"]
    signed_in(web, token, "leaving-1", "/account")
    page = web.page
    expect(page.locator("#account-title")).to_have_text("Moje data")
    expect(page.locator("#export-link")).to_have_text("Zatím jste o data nepožádali.")
    page.click("#export-start")
    link = page.locator("#export-link a")
    expect(link).to_be_focused()
    href = link.get_attribute("href")
    with urllib.request.urlopen(f"{platform.url}{href}", timeout=10) as response:
        assert response.read(2) == b"PK", "a ZIP archive"
    web.check("my-data")

    # Erasing is asked twice; cancel leaves everything as it was.
    page.click("#erase-start")
    expect(page.locator("#erase-confirm")).to_be_focused()
    page.click("#erase-cancel")
    expect(page.locator("#erase-start")).to_be_focused()
    page.click("#erase-start")
    web.check("erase-confirm")
    page.click("#erase-confirm")
    expect(page.locator("#flash")).to_have_text("Váš účet byl smazán.")
    expect(page.locator("#map-page")).to_be_visible()
    expect(page.locator("#sign-out")).to_be_hidden()
    assert api(platform, f"/reports/{report['id']}")["votes_count"] == votes - 1
    summary = get(f"{platform.citizen.base}/api/v1/me/vote-tokens-summary", token)
    assert summary["active_tokens"] == 0, summary
