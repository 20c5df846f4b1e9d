"""Filing: a JPEG filed by a map click, by the keyboard alone and by a street's name, each
appearing on the map and in the list without a reload; a point outside the city refused with
REPORT_OUTSIDE_CITY's text in cs, en and uk; an Idempotency-Key on every send."""

import re

import pytest
from playwright.sync_api import expect

from helpers import api
from services import REPO


def _markers(page):
    return page.locator("#map path.report-marker")


def _sent(web, title, before):
    """The filed report: in the list and on the map, the page never reloaded, the API has it
    with its photo, and the send carried an Idempotency-Key."""
    page = web.page
    expect(page.locator("#filing")).to_be_hidden()
    expect(page.locator("#filing-error")).to_have_text("")
    expect(page.locator("#report-list > li .title", has_text=title)).to_have_count(1)
    expect(_markers(page)).to_have_count(before + 1)
    assert page.evaluate("window.__same === true"), "the page reloaded"
    row = next(r for r in api(web.platform, "/reports", limit=100, q=title)["reports"] if r["title"] == title)
    assert len(row["media"]) == 1 and row["media"][0]["media_type"] == "image/jpeg"
    assert row.get("location")
    return row


def _start(web):
    web.goto("/")
    web.page.evaluate("window.__same = true")
    keys = []
    web.page.on("request", lambda r: r.method == "POST" and r.url.endswith("/api/v1/reports") and keys.append(r.headers.get("idempotency-key")))
    return _markers(web.page).count(), keys


def test_filing_by_a_map_click(web, jpeg):
    before, keys = _start(web)
    page = web.page
    page.click("#file-open")
    expect(page.locator("#filing")).to_be_visible()
    web.check("filing")
    page.locator("#map").click()  # the middle of the map, inside the city
    expect(page.locator("#coordinates")).to_have_value(re.compile(r"^\d+\.\d+, \d+\.\d+$"))
    page.fill("#title", "Rozbitá lavička (mapa)")
    page.fill("#description", "Lavička má ulomené opěradlo.")
    page.set_input_files("#photos", files=[jpeg])
    expect(page.locator("#previews canvas")).to_have_count(1)
    page.click("#send")
    _sent(web, "Rozbitá lavička (mapa)", before)
    assert len(keys) == 1 and keys[0], keys


def test_filing_by_keyboard_alone(web, jpeg):
    before, keys = _start(web)
    page = web.page
    # Interception of the file chooser is on before any key is pressed.
    page.on("filechooser", lambda chooser: chooser.set_files(files=[jpeg]))
    for _ in range(60):  # Tab to the button, as a keyboard user would
        if page.evaluate("document.activeElement?.id") == "file-open":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement?.id") == "file-open"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement?.id") == "pick-on-map"
    page.keyboard.press("Enter")  # the map gets the focus; the arrows move the pin
    assert page.evaluate("document.activeElement?.id") == "map"
    for key in ["ArrowUp", "ArrowUp", "ArrowRight"]:
        page.keyboard.press(key)
    expect(page.locator("#map path.pin")).to_have_count(1)
    page.keyboard.press("Enter")  # drops it; the title is next
    expect(page.locator("#coordinates")).to_have_value(re.compile(r"^\d+\.\d+, \d+\.\d+$"))
    assert page.evaluate("document.activeElement?.id") == "title"
    page.keyboard.type("Chybí dopravní značka (klávesnice)")
    page.keyboard.press("Tab")
    page.keyboard.type("Na rohu chybí značka Stop.")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement?.id") == "photos"
    page.keyboard.press("Space")  # opens the file chooser, answered above
    expect(page.locator("#previews canvas")).to_have_count(1)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement?.id") == "send"
    page.keyboard.press("Enter")
    _sent(web, "Chybí dopravní značka (klávesnice)", before)
    assert len(keys) == 1 and keys[0], keys


def test_filing_by_a_street_name(web, jpeg):
    before, keys = _start(web)
    page = web.page
    page.click("#file-open")
    page.fill("#street-q", "zitna")  # case and diacritics do not matter
    page.press("#street-q", "Enter")
    choice = page.locator("#street-results button", has_text="Žitná")
    expect(choice).to_have_count(1)
    web.check("filing-street")
    choice.click()
    expect(page.locator("#coordinates")).to_have_value(re.compile(r"^50\.\d+, 14\.\d+$"))
    page.fill("#title", "Neprůjezdný chodník (ulice)")
    page.fill("#description", "Chodník je zastavěný lešením bez průchodu.")
    page.set_input_files("#photos", files=[jpeg])
    page.click("#send")
    _sent(web, "Neprůjezdný chodník (ulice)", before)
    assert len(keys) == 1 and keys[0], keys


def _catalogue(language: str) -> str:
    """REPORT_OUTSIDE_CITY's userinfo in `language`, from the API's catalogue (the message
    routes/reports/create.rs answers it with)."""
    text = (REPO / "crates" / "i18n" / "locales" / f"{language}.ftl").read_text()
    return re.search(r"^report-outside-city = (.+)$", text, re.M).group(1).strip()


@pytest.mark.parametrize("language", ["cs", "en", "uk"])
def test_a_point_outside_the_city(web, language):
    expected = _catalogue(language)
    before, keys = _start(web)
    page = web.page
    if language != "cs":
        page.select_option("#language", language)
    page.click("#file-open")
    page.fill("#coordinates", "50.0, 15.3")  # east of the city
    page.press("#coordinates", "Tab")
    page.fill("#title", "Mimo město")
    page.fill("#description", "Tohle je za hranicí.")
    page.click("#send")
    expect(page.locator("#filing-error")).to_have_text(expected)
    if language == "uk":
        web.check("filing-refused")
    # Sent again unchanged: the same key (a retry); changed: a new one.
    page.click("#send")
    expect(page.locator("#filing-error")).to_have_text(expected)
    page.fill("#title", "Mimo město 2")
    page.click("#send")
    expect(page.locator("#filing-error")).to_have_text(expected)
    assert len(keys) == 3 and keys[0] == keys[1] != keys[2], keys
    expect(_markers(page)).to_have_count(before)
