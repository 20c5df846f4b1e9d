"""The officers' console (issue 56): the queue and its live updates between two officers, a
conflict on one issue told as what happened, a statement from a reply template and the citizen's
timeline in a third context, a bulk move of 50 with one planted conflict, the templates page, and
axe on every console page."""

import re
import uuid

from playwright.sync_api import expect

from helpers import dev_token, file_report, signed_in

OFFICER = ["cityuser:reports:read", "cityuser:reports:manage", "cityuser:report-categories:access-all"]


def officer(platform, sub):
    return platform.token("citizen-api", sub, OFFICER)


def admin(platform, method, path, token, body=None):
    return platform.call(method, f"{platform.citizen.base}/api/v1{path}", body, token)


def issue_of(platform, token, report_id):
    return admin(platform, "GET", f"/admin/reports/{report_id}", token)["issues"][0]


def categories(platform, token):
    return admin(platform, "GET", "/admin/report-categories", token)["categories"]


def queue_path(q):
    return f"/queue?q={q}"


def test_two_officers_see_each_others_actions_and_a_conflict_is_told(platform, another_web):
    tag = uuid.uuid4().hex[:8]
    citizen = dev_token(platform, f"console-citizen-{tag}")
    report = file_report(platform, citizen, f"Fronta {tag} hlášení", 14.4213, 50.0875)
    first, second = officer(platform, f"officer-a-{tag}"), officer(platform, f"officer-b-{tag}")
    a, b = another_web(), another_web()
    signed_in(a, first, "officer-a", queue_path(tag))
    signed_in(b, second, "officer-b", queue_path(tag))
    for web in (a, b):
        expect(web.page.locator("#queue-table tbody tr")).to_have_count(1)
        expect(web.page.locator("#queue-tabs a[data-status=open] .count")).to_have_text("1")
    row_b = b.page.locator(f"#queue-table tr[data-report='{report}']")
    expect(row_b.locator("td .status").first).to_have_text("Nový")
    a.check("console-queue")

    # Officer A by keyboard alone: j to the row, Enter opens it, a accepts.
    a.page.locator("#queue-title").focus()
    a.page.keyboard.press("j")
    expect(a.page.locator(f"tr[data-report='{report}'] .open-report")).to_be_focused()
    a.page.keyboard.press("Enter")
    expect(a.page).to_have_url(re.compile(f"/queue/reports/{report}$"))
    expect(a.page.locator("#casework-title")).to_be_focused()
    a.check("console-casework")
    a.page.keyboard.press("a")
    expect(a.page.locator("#flash")).to_have_text("Podnět byl přijat.")
    # Officer B's open queue shows it within 2 s, without a reload.
    expect(row_b.locator("td .status").first).to_have_text("Přijat", timeout=2000)
    expect(b.page.locator("#queue-tabs a[data-status=accepted] .count")).to_have_text("1", timeout=2000)

    # Both resolve the same issue at once: one succeeds, the other is told what happened.
    b.page.click(f"tr[data-report='{report}'] .open-report")
    for web in (a, b):
        expect(web.page.locator("section.issue button.resolve")).to_be_visible()
    a.page.click("section.issue button.resolve")
    b.page.click("section.issue button.resolve")
    flashes = []
    for web in (a, b):
        expect(web.page.locator("#flash")).not_to_have_text("")
        expect(web.page.locator("section.issue [data-status]")).to_have_text("Vyřešen")
        expect(web.page.locator("section.issue button.resolve")).to_have_count(0)
        flashes.append(web.page.locator("#flash").inner_text())
    done = [f for f in flashes if f == "Podnět byl vyřešen."]
    told = [f for f in flashes if f.startswith("Jiný úředník byl rychlejší.")]
    assert len(done) == 1 and len(told) == 1, flashes
    assert re.search(r"officer-[ab]-\w+ mezitím ho vyřešil", told[0]), told[0]
    assert "409" not in told[0] and "ISSUE_" not in told[0], told[0]


def test_a_statement_from_a_template_reaches_the_citizens_timeline(platform, web, another_web):
    tag = uuid.uuid4().hex[:8]
    citizen = dev_token(platform, f"timeline-citizen-{tag}")
    report = file_report(platform, citizen, f"Šablona {tag} hlášení", 14.4190, 50.0860)
    token = officer(platform, f"officer-t-{tag}")
    issue = issue_of(platform, token, report)
    answer = f"Děkujeme, opravu jsme zadali ({tag})."
    template = admin(platform, "POST", "/admin/reply-templates", token, {
        "category_id": issue["category_id"],
        "title": f"Oprava zadána {tag}",
        "texts": {"cs": answer, "en": f"Thank you, the repair is ordered ({tag})."},
        "applies_on": "resolved",
    })
    signed_in(web, token, "officer-t", f"/queue/reports/{report}")
    page = web.page
    page.click("section.issue button.accept")
    expect(page.locator("#flash")).to_have_text("Podnět byl přijat.")
    # The template fills the statement, which is sent as it is.
    page.select_option("section.issue select[id^=statement-template]", template["template_id"])
    expect(page.locator("section.issue .statement-text")).to_have_value(answer)
    page.click("section.issue .statement-form button[type=submit]")
    expect(page.locator("#flash")).to_have_text("Vyjádření bylo odesláno.")
    expect(page.locator("section.issue .statements li").first).to_contain_text(answer)
    # Resolving offers the template that applies on it.
    page.check("section.issue input[id^=with-template-resolved]")
    page.click("section.issue button.resolve")
    expect(page.locator("#flash")).to_have_text("Podnět byl vyřešen.")
    expect(page.locator("section.issue .statements li")).to_have_count(2)
    web.check("console-casework-resolved")

    # The citizen's page, in a third context: the timeline with both steps and the statements.
    citizen_web = another_web()
    citizen_web.goto(f"/reports/{report}")
    timeline = citizen_web.page.locator(".timeline")
    expect(timeline.locator("li[data-status=resolved]")).to_be_visible()
    expect(timeline.locator("li[data-status=accepted]")).to_contain_text(answer)
    expect(citizen_web.page.locator("#report-status")).to_have_text("Vyřešen")


def test_a_bulk_move_of_50_names_the_one_conflict(platform, web):
    tag = uuid.uuid4().hex[:8]
    citizen = dev_token(platform, f"bulk-citizen-{tag}")
    reports = [file_report(platform, citizen, f"Hromadně {tag} č. {n}", 14.40 + n * 0.0004, 50.08) for n in range(50)]
    token = officer(platform, f"officer-bulk-{tag}")
    planter = officer(platform, f"planter-{tag}")
    first = issue_of(platform, token, reports[0])
    others = [c for c in categories(platform, token) if c["category_id"] != first["category_id"]]
    target, elsewhere = others[0], others[1]
    signed_in(web, token, "officer-bulk", queue_path(tag))
    page = web.page
    expect(page.locator("#queue-table tbody tr")).to_have_count(50)
    # Two by keyboard (x selects), the rest with the box of the whole page.
    page.locator("#queue-title").focus()
    page.keyboard.press("j")
    page.keyboard.press("x")
    page.keyboard.press("j")
    page.keyboard.press("x")
    expect(page.locator("#bulk-title")).to_have_text("Vybráno: 2")
    page.check("#queue-select-all")
    expect(page.locator("#bulk-title")).to_have_text("Vybráno: 50")
    # Another officer moves one of them after it was selected.
    planted = reports[17]
    admin(platform, "POST", f"/admin/issues/{issue_of(platform, planter, planted)['issue_id']}/move", planter, {"category_id": elsewhere["category_id"]})
    page.locator("#queue-title").focus()
    page.keyboard.press("b")
    expect(page.locator("#bulk-action")).to_be_focused()
    page.select_option("#bulk-action", "move")
    page.select_option("#bulk-category", target["category_id"])
    page.fill("#bulk-text", f"Předáno správci ({tag}).")
    page.click("#bulk-apply")
    expect(page.locator("#bulk-summary")).to_have_text("Provedeno: 49. Neprovedeno: 1.", timeout=60000)
    failures = page.locator("#bulk-failures li")
    expect(failures).to_have_count(1)
    expect(failures.first).to_have_attribute("data-report", planted)
    expect(failures.first).to_contain_text(f"planter-{tag} mezitím ho předal jiné kategorii")
    web.check("console-bulk")
    # The API agrees: 49 in the target category with the statement, the planted one where it was put.
    for report in reports:
        issue = issue_of(platform, token, report)
        expected = elsewhere if report == planted else target
        assert issue["category_id"] == expected["category_id"], (report, issue)
    details = admin(platform, "GET", f"/admin/reports/{reports[0]}/issues", token)["issues"][0]
    assert details["statements"][0]["text"] == f"Předáno správci ({tag}).", details


def test_the_templates_page(platform, web):
    tag = uuid.uuid4().hex[:8]
    token = officer(platform, f"officer-templates-{tag}")
    category = categories(platform, token)[0]
    signed_in(web, token, "officer-templates", "/queue")
    page = web.page
    page.click("#templates-link")
    expect(page.locator("#templates-title")).to_be_focused()
    page.select_option("#template-category", category["category_id"])
    page.fill("#template-title", f"Vlastní {tag}")
    page.fill("#template-text-cs", f"Česky {tag}")
    page.fill("#template-text-uk", f"Українською {tag}")
    page.select_option("#template-applies", "accepted")
    page.click("#template-form button[type=submit]")
    expect(page.locator("#flash")).to_have_text("Šablona byla uložena.")
    item = page.locator("#templates-list li", has_text=f"Vlastní {tag}")
    expect(item).to_contain_text(f"Česky {tag}")
    saved = [t for t in admin(platform, "GET", "/admin/reply-templates", token)["templates"] if t["title"] == f"Vlastní {tag}"]
    assert len(saved) == 1 and saved[0]["texts"] == {"cs": f"Česky {tag}", "uk": f"Українською {tag}"}, saved
    assert saved[0]["applies_on"] == "accepted", saved
    web.check("console-templates")
    # In Ukrainian the list shows the Ukrainian text; editing keeps the category.
    page.select_option("#language", "uk")
    expect(item).to_contain_text(f"Українською {tag}")
    item.locator(".edit-template").click()
    expect(page.locator("#template-form-title")).to_be_focused()
    page.fill("#template-title", f"Upraveno {tag}")
    page.click("#template-form button[type=submit]")
    edited = page.locator("#templates-list li", has_text=f"Upraveno {tag}")
    expect(edited).to_be_visible()
    edited.locator(".delete-template").click()
    edited.locator(".delete-template").click()
    expect(page.locator("#templates-list li", has_text=f"Upraveno {tag}")).to_have_count(0)
    assert not [t for t in admin(platform, "GET", "/admin/reply-templates", token)["templates"] if t["title"].endswith(tag)]


def test_a_citizen_is_not_shown_the_console(web, platform):
    signed_in(web, dev_token(platform, "console-citizen"), "console-citizen", "/queue")
    expect(web.page.locator("#main-nav a[href='/queue']")).to_be_hidden()
    expect(web.page.locator("#queue-page")).to_contain_text("Tato stránka je pro úředníky.")
