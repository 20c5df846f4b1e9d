"""News and projects: the city's news newest first, by category of the tree, nearest first from
the citizen's position (asked for when chosen), an item's own page; signed in, following
categories; the projects and a project's page. Compared with the API."""

from playwright.sync_api import expect

from helpers import api, dev_token, get, signed_in


def test_news_by_category_and_nearest_first(web, platform):
    every = api(platform, "/news", limit=100)["news"]
    assert every, "the demo data has news"
    web.goto("/news")
    page = web.page
    expect(page.locator("#news-title")).to_have_text("Novinky z města")
    expect(page.locator("#news-list > li")).to_have_count(min(len(every), 20))
    expect(page.locator("#news-list > li").first).to_have_attribute("data-news", every[0]["id"])
    web.check("news")

    # A category of the tree: what the API gives for it.
    tree = api(platform, "/news-categories")["news_categories"]
    category = next(c for c in tree if api(platform, "/news", category=c["category_id"])["news"])
    expected = api(platform, "/news", limit=20, category=category["category_id"])["news"]
    page.select_option("#news-category", category["category_id"])
    page.click("#news-filters button[type=submit]")
    expect(page.locator("#news-list > li")).to_have_count(len(expected))
    expect(page.locator("#news-list > li").first).to_have_attribute("data-news", expected[0]["id"])

    # Nearest first from the browser's position (granted for the test).
    page.context.grant_permissions(["geolocation"])
    page.context.set_geolocation({"longitude": 14.4213, "latitude": 50.0875})
    page.select_option("#news-category", "")
    page.select_option("#news-order", "near")
    page.click("#news-filters button[type=submit]")
    nearest = api(platform, "/news", limit=20, location="14.4213,50.0875")["news"]
    expect(page.locator("#news-list > li").first).to_have_attribute("data-news", nearest[0]["id"])
    expect(page.locator("#news-list > li").first).to_contain_text("km")

    # An item's own page, shareable.
    page.locator("#news-list > li a").first.click()
    expect(page.locator("#news-item-title")).to_have_text(nearest[0]["title"])
    web.check("news-item")
    page.go_back()
    expect(page.locator("#news-title")).to_be_visible()


def test_following_news_categories(web, platform):
    token = dev_token(platform, "reader-1")
    signed_in(web, token, "reader-1", "/news")
    page = web.page
    boxes = page.locator("#follow-form input[type=checkbox]")
    expect(boxes.first).to_be_visible()
    first = boxes.first.get_attribute("value")
    boxes.first.check()
    page.click("#follow-form button[type=submit]")
    expect(page.locator("#follow-status")).to_have_text("Uloženo.")
    mine = get(f"{platform.citizen.base}/api/v1/me/news-categories", token)["subscriptions"]
    assert mine == [first], mine
    web.check("news-follow")
    boxes.first.uncheck()
    page.click("#follow-form button[type=submit]")
    expect(page.locator("#follow-status")).to_have_text("Uloženo.")
    assert get(f"{platform.citizen.base}/api/v1/me/news-categories", token)["subscriptions"] == []


def test_projects_and_a_projects_page(web, platform):
    projects = api(platform, "/projects", limit=20)["projects"]
    assert projects, "the demo data has projects"
    web.goto("/projects")
    page = web.page
    items = page.locator("#project-list > li")
    expect(items).to_have_count(len(projects))
    expect(items.first).to_have_attribute("data-project", projects[0]["project_id"])
    web.check("projects")
    detail = api(platform, f"/projects/{projects[0]['project_id']}")
    items.first.locator("a").click()
    expect(page.locator("#project-title")).to_have_text(detail["title"])
    expect(page.locator("#project-page .description")).to_have_text(detail["description"])
    web.check("project")
    # Opened directly (a shared link), and an unknown one.
    web.goto(f"/projects/{detail['project_id']}")
    expect(page.locator("#project-title")).to_have_text(detail["title"])
    web.goto("/projects/00000000-0000-4000-8000-000000000000")
    expect(page.locator("#project-title")).to_have_text("Projekt nenalezen")
