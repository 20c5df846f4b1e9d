"""The editors' page (/editor, issue 56): a news category, a news item with a picture, a place and
that category, a project with a picture, edited and deleted through the page; the API and the
public pages agree; axe on the page; a citizen is not offered it."""

import uuid

from playwright.sync_api import expect

from helpers import api, dev_token, signed_in

EDITOR = ["cityuser:news:manage", "cityuser:news-categories:manage", "cityuser:projects:manage"]


def test_editors_write_news_categories_and_projects(platform, web, jpeg):
    tag = uuid.uuid4().hex[:8]
    token = platform.token("citizen-api", f"editor-{tag}", EDITOR)
    signed_in(web, token, "editor", "/")
    page = web.page
    page.click("#main-nav a[href='/editor']")
    expect(page.locator("#editor-title")).to_be_focused()

    # A news category.
    page.fill("#category-name", f"Doprava {tag}")
    page.click("#category-form button[type=submit]")
    expect(page.locator("#flash")).to_have_text("Uloženo.")
    expect(page.locator("#editor-categories li", has_text=f"Doprava {tag}")).to_have_count(1)

    # A news item with a picture, a place and the category.
    page.fill("#news-title-input", f"Uzavírka {tag}")
    page.fill("#news-text", "Most bude uzavřen.")
    page.set_input_files("#news-image", jpeg)
    page.fill("#news-location", "14.4213,50.0875")
    page.check(f"#news-form label:has-text('Doprava {tag}') input")
    page.click("#news-form button[type=submit]")
    expect(page.locator("#flash")).to_have_text("Uloženo.")
    item = page.locator("#editor-news li", has_text=f"Uzavírka {tag}")
    expect(item).to_have_count(1)
    news = [n for n in api(platform, "/news", limit=50)["news"] if n["title"] == f"Uzavírka {tag}"]
    assert len(news) == 1, news
    assert news[0]["image"].startswith(platform.citizen.base), news[0]
    assert news[0]["location"]["coordinates"] == [14.4213, 50.0875], news[0]
    assert [c["name"] for c in news[0]["categories"]] == [f"Doprava {tag}"], news[0]
    web.check("editors")

    # Edited: the title changes, the picture and the category stay.
    item.locator(".edit-item").click()
    expect(page.locator("#news-form h3")).to_be_focused()
    page.fill("#news-title-input", f"Uzavírka mostu {tag}")
    page.click("#news-form button[type=submit]")
    expect(page.locator("#editor-news li", has_text=f"Uzavírka mostu {tag}")).to_have_count(1)
    edited = api(platform, f"/news/{news[0]['id']}")
    assert edited["image"] == news[0]["image"] and len(edited["categories"]) == 1, edited

    # A project with a picture, shown on the public projects page.
    page.fill("#project-title-input", f"Nová lávka {tag}")
    page.fill("#project-text", "Lávka přes řeku.")
    page.set_input_files("#project-pictures", jpeg)
    page.click("#project-form button[type=submit]")
    expect(page.locator("#editor-projects li", has_text=f"Nová lávka {tag}")).to_have_count(1)
    projects = [p for p in api(platform, "/projects", limit=50)["projects"] if p["title"] == f"Nová lávka {tag}"]
    assert len(projects) == 1, projects
    project = api(platform, f"/projects/{projects[0]['project_id']}")
    assert len(project["media"]) == 1, project
    # Edited: the picture stays.
    page.locator("#editor-projects li", has_text=f"Nová lávka {tag}").locator(".edit-item").click()
    expect(page.locator("#project-form h3")).to_be_focused()
    page.fill("#project-text", "Lávka přes řeku, s osvětlením.")
    page.click("#project-form button[type=submit]")
    expect(page.locator("#flash")).to_have_text("Uloženo.")
    project = api(platform, f"/projects/{projects[0]['project_id']}")
    assert project["description"] == "Lávka přes řeku, s osvětlením." and len(project["media"]) == 1, project

    # Deleted with a second press.
    removed = page.locator("#editor-news li", has_text=f"Uzavírka mostu {tag}").locator(".delete-item")
    removed.click()
    removed.click()
    expect(page.locator("#flash")).to_have_text("Smazáno.")
    expect(page.locator("#editor-news li", has_text=f"Uzavírka mostu {tag}")).to_have_count(0)
    assert not [n for n in api(platform, "/news", limit=50)["news"] if n["title"].endswith(tag)]


def test_a_citizen_is_not_offered_the_editors_page(web, platform):
    signed_in(web, dev_token(platform, "editors-citizen"), "editors-citizen", "/editor")
    expect(web.page.locator("#main-nav a[href='/editor']")).to_be_hidden()
    expect(web.page.locator("#editor-page")).to_contain_text("Tato stránka je pro redaktory.")
