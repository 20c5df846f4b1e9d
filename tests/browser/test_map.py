"""The map page: the demo streets, the boundary and the reports drawn (one path per feature, counted
against the APIs), the list kept in step with the map, and the list's filters."""

import re

from playwright.sync_api import expect

from helpers import api, boundary_bbox, streets_in

SELECTED = re.compile(r"\bselected\b")


def test_demo_streets_and_reports_drawn(web, platform):
    web.goto("/")
    streets = streets_in(platform, boundary_bbox(platform))
    assert streets == 16  # the demo city's streets
    reports = api(platform, "/reports", limit=100)["reports"]
    located = [r for r in reports if r.get("location")]
    assert located
    expect(web.page.locator("#map path.street")).to_have_count(streets)
    expect(web.page.locator("#map path.boundary")).to_have_count(1)
    expect(web.page.locator("#map path.report-marker")).to_have_count(len(located))
    expect(web.page.locator("#report-list > li")).to_have_count(len(reports))
    # The map is one tab stop, not one per marker: the list is the keyboard's way to reports.
    expect(web.page.locator("#map path.report-marker:not([tabindex='-1'])")).to_have_count(0)
    web.check("map")


def test_list_and_markers_in_step(web, platform):
    web.goto("/")
    first = web.page.locator("#report-list > li").first
    report_id = first.get_attribute("data-report")
    first.locator("button.select").click()
    expect(web.page.locator(f'#map path[data-report="{report_id}"]')).to_have_class(SELECTED)
    expect(first).to_have_class(SELECTED)
    # And back: a marker's click selects its row.
    last = web.page.locator("#report-list > li").last
    other = last.get_attribute("data-report")
    web.page.locator(f'#map path[data-report="{other}"]').dispatch_event("click")
    expect(last).to_have_class(SELECTED)
    expect(first).not_to_have_class(SELECTED)
    expect(web.page.locator(f'#map path[data-report="{report_id}"]')).not_to_have_class(SELECTED)
    expect(last.locator("button.select")).to_have_attribute("aria-pressed", "true")


def test_filters_match_the_api(web, platform):
    web.goto("/")
    web.page.fill("#filter-q", "lampa")
    web.page.press("#filter-q", "Enter")
    expected = api(platform, "/reports", limit=100, q="lampa")["reports"]
    assert len(expected) == 1
    expect(web.page.locator("#report-list > li")).to_have_count(1)
    expect(web.page.locator("#report-list > li .title")).to_have_text(expected[0]["title"])
    expect(web.page.locator("#map path.report-marker")).to_have_count(1)
    web.page.fill("#filter-q", "")
    web.page.select_option("#filter-status", "accepted")
    accepted = api(platform, "/reports", limit=100, status="accepted")["reports"]
    expect(web.page.locator("#report-list > li")).to_have_count(len(accepted))
    web.check("map-filtered")


def test_languages(web):
    for language, heading in [("cs", "Nejnovější podněty"), ("en", "Latest reports"), ("uk", "Останні звернення")]:
        web.goto("/", language=language)
        expect(web.page.locator("#reports-title")).to_have_text(heading)
        expect(web.page.locator("html")).to_have_attribute("lang", language)
    # The choice is remembered.
    web.page.reload()
    expect(web.page.locator("#reports-title")).to_have_text("Останні звернення")
