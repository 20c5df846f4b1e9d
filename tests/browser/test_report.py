"""A report's page at /reports/<id>: shareable (opened directly), title, description, photos,
derived status, the public timeline newest first and the vote count, as the API has them."""

from playwright.sync_api import expect

from helpers import api, dev_token, file_report


def _with_timeline(platform):
    for report in api(platform, "/reports", limit=100)["reports"]:
        steps = api(platform, f"/reports/{report['id']}/status")["statuses"]
        if steps:
            return report["id"], steps
    raise AssertionError("the demo data has no report with a public timeline")


def test_a_reports_page(web, platform):
    report_id, steps = _with_timeline(platform)
    detail = api(platform, f"/reports/{report_id}")
    web.goto(f"/reports/{report_id}")
    page = web.page
    expect(page.locator("#report-title")).to_have_text(detail["title"])
    expect(page.locator(".description")).to_have_text(detail["description"])
    expect(page.locator("#vote-count")).to_contain_text(str(detail.get("votes_count", 0)))
    expect(page.locator(".photos img")).to_have_count(len(detail["media"]))
    statuses = {"open": "Nový", "accepted": "Přijat", "duplicate": "Duplicitní", "resolved": "Vyřešen"}
    expect(page.locator("#report-status")).to_have_text(statuses[detail.get("status") or "open"])
    # Newest first: the last step of the API's chronological list comes first.
    items = page.locator(".timeline > li")
    expect(items).to_have_count(len(steps))
    expect(items.first).to_have_attribute("data-status", steps[-1]["status"])
    web.check("report")
    # Back to the map without a reload, then forward again by the browser's history.
    page.evaluate("window.__same = true")
    page.click("text=Zpět na mapu")
    expect(page.locator("#map-page")).to_be_visible()
    page.go_back()
    expect(page.locator("#report-title")).to_have_text(detail["title"])
    assert page.evaluate("window.__same === true")


def test_an_unknown_report(web, platform):
    web.goto("/reports/00000000-0000-4000-8000-000000000000")
    expect(web.page.locator("#report-title")).to_have_text("Podnět nenalezen")


def test_a_report_without_photos(web, platform):
    """A report with no photos (as one filed through Open311 or by a citizen without any) shows
    its description, then the votes: nothing between them (the page once wrote "null" there)."""
    token = dev_token(platform, "report-page-citizen")
    report_id = file_report(platform, token, "Bez fotky", 14.4213, 50.0875)
    web.goto(f"/reports/{report_id}")
    page = web.page
    expect(page.locator("#report-title")).to_have_text("Bez fotky")
    expect(page.locator(".photos")).to_have_count(0)
    assert page.evaluate(
        "[...document.getElementById('report-page').childNodes].filter(n => n.nodeType === Node.TEXT_NODE).length"
    ) == 0, page.inner_html("#report-page")
    web.check("report-without-photos")
