"""Signed in by the dev sign-in: vote and unvote on a report's page with the pool shown (the pool
changes, as the API counts it), and my reports."""

from playwright.sync_api import expect

from helpers import api, get


def _sign_in(web, sub):
    page = web.page
    page.click("#sign-in")
    expect(page.locator("#dev-sign-in")).to_be_visible()
    web.check("sign-in")
    page.fill("#dev-sub", sub)
    page.click("#dev-sign-in button[type=submit]")
    expect(page.locator("#sign-out")).to_be_visible()



def test_vote_and_unvote_change_the_pool(web, platform):
    report = api(platform, "/reports", limit=1)["reports"][0]
    web.goto(f"/reports/{report['id']}")
    page = web.page
    expect(page.locator("#vote")).to_have_count(0)  # anonymous: no vote button
    _sign_in(web, "voter-1")
    summary = get(f"{platform.citizen.base}/api/v1/me/vote-tokens-summary", platform.token("citizen-api", "voter-1", []))
    pool = summary["available_tokens"]
    count = report.get("votes_count", 0)
    expect(page.locator("#vote-pool")).to_contain_text(f"{pool} ")
    page.click("#vote")
    expect(page.locator("#vote-pool")).to_contain_text(f"{pool - 1} ")
    expect(page.locator("#vote-count")).to_contain_text(str(count + 1))
    expect(page.locator("#unvote")).to_be_focused()
    web.check("report-voted")
    page.click("#unvote")
    expect(page.locator("#vote-pool")).to_contain_text(f"{pool} ")
    expect(page.locator("#vote-count")).to_contain_text(str(count))
    expect(page.locator("#vote")).to_be_visible()


def test_my_reports(web, platform):
    web.goto("/")
    page = web.page
    _sign_in(web, "demo-citizen")  # who filed some of the demo reports
    token = platform.token("citizen-api", "demo-citizen", [])
    mine = get(f"{platform.citizen.base}/api/v1/me/reports?limit=100", token)["reports"]
    assert mine
    page.click("#mine-open")
    expect(page.locator("#mine-list > li")).to_have_count(len(mine))
    web.check("my-reports")
    page.click("#sign-out")
    expect(page.locator("#mine")).to_be_hidden()
    expect(page.locator("#sign-in")).to_be_visible()
