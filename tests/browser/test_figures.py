"""The officers' figures at /figures (GET /admin/stats, issue 56): the table against the API's
figures for the same period, the chart, the CSV download, the period and category in the URL,
worked with the keyboard alone; a citizen is not shown the page."""

import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

from playwright.sync_api import expect

from helpers import dev_token, file_report, get, signed_in

SCOPES = ["cityuser:reports:read", "cityuser:report-categories:access-all"]


def test_the_figures_page(web, platform):
    # At least one report received in the period, whatever the demo data holds.
    file_report(platform, dev_token(platform, "figures-citizen"), "Do výsledků", 14.4213, 50.0875)
    token = platform.token("citizen-api", "figures-officer", SCOPES)
    today = datetime.now(timezone.utc).date()
    start = today - timedelta(days=29)
    stats = get(
        f"{platform.citizen.base}/api/v1/admin/stats?dateFrom={start}T00:00:00Z&dateTo={today + timedelta(days=1)}T00:00:00Z",
        token,
    )
    assert stats["total"]["received"] >= 1, stats
    signed_in(web, token, "figures-officer", "/")
    page = web.page
    # The menu offers the page to an officer; the default period is the last 30 days.
    page.click("#main-nav a[href='/figures']")
    expect(page.locator("#figures-title")).to_be_focused()
    expect(page.locator("#figures-from")).to_have_value(str(start))
    expect(page.locator("#figures-to")).to_have_value(str(today))
    rows = page.locator("#figures-table tbody tr")
    expect(rows).to_have_count(len(stats["categories"]))
    for index, row in enumerate(stats["categories"]):
        expect(rows.nth(index).locator("th")).to_have_text(row["category_name"])
        cells = rows.nth(index).locator("td")
        for column, field in enumerate(["received", "accepted", "resolved", "duplicates", "overdue_now"]):
            expect(cells.nth(column)).to_have_text(str(row["figures"][field]))
    total = page.locator("#figures-total td")
    expect(total.nth(0)).to_have_text(str(stats["total"]["received"]))
    expect(total.nth(5)).to_contain_text(f"({stats['total']['first_statement']['measured']})")
    # Two bars a category (received, resolved) and the legend's two swatches.
    expect(page.locator("#figures-chart rect")).to_have_count(2 * len(stats["categories"]) + 2)
    web.check("figures")

    # The CSV download: the same total as the table.
    with page.expect_download() as download:
        page.click("#figures-csv")
    lines = Path(download.value.path()).read_text().splitlines()
    assert lines[0].startswith("category_id,category_name,"), lines[0]
    assert len(lines) == len(stats["categories"]) + 2, lines
    last = lines[-1].split(",")
    assert last[:2] == ["", "total"] and last[4] == str(stats["total"]["received"]), lines[-1]

    # Keyboard alone: a category chosen in the form lands in the URL and narrows the table.
    page.focus("#figures-category")
    page.keyboard.press("ArrowDown")
    chosen = page.locator("#figures-category").input_value()
    first = next(row for row in stats["categories"] if row["category_id"] == chosen)
    page.keyboard.press("Tab")
    expect(page.locator("#figures-form button[type=submit]")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(rf"/figures\?from={start}&to={today}&category={first['category_id']}$"))
    expect(rows).to_have_count(1)
    expect(rows.first.locator("th")).to_have_text(first["category_name"])
    # Shared as a link: the same view on opening it.
    web.goto(f"/figures?from={start}&to={today}&category={first['category_id']}")
    expect(page.locator("#figures-category")).to_have_value(first["category_id"])


def test_a_citizen_is_not_shown_the_figures(web, platform):
    signed_in(web, dev_token(platform, "figures-citizen"), "figures-citizen", "/figures")
    expect(web.page.locator("#main-nav a[href='/figures']")).to_be_hidden()
    expect(web.page.locator("#figures-page")).to_contain_text("Tato stránka je pro úředníky.")
