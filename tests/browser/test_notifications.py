"""Notifications: an officer's accept (through the API) shows on the report's timeline and as a
notification with the unread badge, whose link opens the report's page and marks it read; the
delivery settings, the e-mail subscription and web push in this browser (the service worker
registered, the VAPID key from the API, the subscription stored)."""

from playwright.sync_api import expect

from helpers import dev_token, file_report, get, post_json, signed_in, until

OFFICER_SCOPES = ["cityuser:reports:manage", "cityuser:report-categories:access-all"]

# The push service of the stand-in subscription: one the API accepts by default. Nothing is sent
# there (the suite runs citizen-api with delivery off; tests/api covers delivery).
ENDPOINT = "https://fcm.googleapis.com/fcm/send/browser-suite"

# A browser without a push service (headless Chromium here) cannot subscribe for real: the page's
# PushManager is replaced by one that hands out a subscription with real keys (WebCrypto).
STUB_PUSH = """
(() => {
  let current = null;
  const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  window.__pushSubscribeCalls = 0;
  PushManager.prototype.getSubscription = async function () { return current; };
  PushManager.prototype.subscribe = async function (options) {
    window.__pushSubscribeCalls += 1;
    window.__pushKeyLength = new Uint8Array(options.applicationServerKey).length;
    const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
    const p256dh = b64url(await crypto.subtle.exportKey('raw', pair.publicKey));
    const auth = b64url(crypto.getRandomValues(new Uint8Array(16)));
    current = {
      endpoint: '%s',
      toJSON() { return { endpoint: this.endpoint, expirationTime: null, keys: { p256dh, auth } }; },
      async unsubscribe() { current = null; return true; },
    };
    return current;
  };
  Notification.requestPermission = async () => 'granted';
})();
""" % ENDPOINT


def _accept(platform, report_id):
    officer = platform.token("citizen-api", "officer-1", OFFICER_SCOPES)
    issues = get(f"{platform.citizen.base}/api/v1/admin/reports/{report_id}/issues", officer)["issues"]
    post_json(f"{platform.citizen.base}/api/v1/admin/issues/{issues[0]['issue_id']}/accept", {}, officer)


def _unread(platform, token):
    return get(f"{platform.citizen.base}/api/v1/me/notifications/unread-count", token)["unread_count"]


def test_an_officers_accept_reaches_the_timeline_and_the_feed(web, platform):
    token = dev_token(platform, "notified-1")
    report_id = file_report(platform, token, "Vyvrácená dopravní značka", 14.4213, 50.0875)
    _accept(platform, report_id)
    until(lambda: _unread(platform, token) == 1, "the outbox worker wrote the entry")

    signed_in(web, token, "notified-1", "/notifications")
    page = web.page
    badge = page.locator("#unread-badge")
    expect(badge).to_be_visible()
    expect(badge).to_contain_text("1")
    entries = page.locator("#feed > li")
    expect(entries).to_have_count(1)
    expect(entries.first).to_have_class("entry unread")
    expect(entries.first).to_contain_text("Hlášení má nový stav")
    web.check("notifications")

    # The entry's link is the report's page on this site: opened without a reload, read since.
    page.evaluate("window.__same = true")
    feed = get(f"{platform.citizen.base}/api/v1/me/notifications", token)["notifications"]
    assert feed[0]["url"] == f"{platform.url}/reports/{report_id}", feed
    link = entries.first.locator("a.entry-link")
    expect(link).to_have_attribute("href", f"/reports/{report_id}")
    link.click()
    expect(page.locator("#report-title")).to_have_text("Vyvrácená dopravní značka")
    expect(page.locator("#report-status")).to_have_text("Přijat")
    expect(page.locator(".timeline > li").first).to_have_attribute("data-status", "accepted")
    assert page.evaluate("window.__same === true"), "the page reloaded"
    until(lambda: _unread(platform, token) == 0, "opening the entry marked it read")
    expect(badge).to_be_hidden()

    # The feed in English; the entry read now.
    page.click("#main-nav a[href='/notifications']")
    page.select_option("#language", "en")
    expect(page.locator("#feed > li").first).to_have_class("entry read")
    expect(page.locator("#notifications-title")).to_have_text("Notifications")


def test_read_marks_settings_and_email(web, platform):
    token = dev_token(platform, "notified-2", email="notified-2@example.org")
    for title in ("Chybí poklop", "Nesvítí lampa"):
        _accept(platform, file_report(platform, token, title, 14.42, 50.08))
    until(lambda: _unread(platform, token) == 2, "the outbox worker wrote both entries")
    signed_in(web, token, "notified-2", "/notifications")
    page = web.page
    expect(page.locator("#feed > li.unread")).to_have_count(2)
    # One by its own button (keyboard: focus and Enter), then the rest at once.
    page.locator("#feed > li .mark-read").first.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#feed > li.unread")).to_have_count(1)
    expect(page.locator("#unread-badge")).to_contain_text("1")
    page.click("#mark-all")
    expect(page.locator("#feed > li.unread")).to_have_count(0)
    expect(page.locator("#unread-badge")).to_be_hidden()
    assert _unread(platform, token) == 0

    # A weekly digest instead of each at once.
    page.select_option("#notify-interval", "weekly")
    page.click("#notify-settings button[type=submit]")
    expect(page.locator("#settings-status")).to_have_text("Uloženo.")
    settings = get(f"{platform.citizen.base}/api/v1/me/notifications/settings", token)
    assert settings == {"enabled": True, "interval": "weekly"}, settings

    # E-mail to the token's address, then off again.
    page.click("#email-on")
    expect(page.locator("#email-status")).to_have_text("Upozornění chodí na váš e-mail.")
    assert get(f"{platform.citizen.base}/api/v1/me/notifications/email", token) == {"status": True}
    web.check("notification-settings")
    page.click("#email-off")
    expect(page.locator("#email-status")).to_have_text("Upozornění e-mailem nechodí.")
    assert get(f"{platform.citizen.base}/api/v1/me/notifications/email", token) == {"status": False}


def test_web_push_in_this_browser(web, platform):
    web.page.add_init_script(STUB_PUSH)
    token = dev_token(platform, "notified-3")
    signed_in(web, token, "notified-3", "/notifications")
    page = web.page
    expect(page.locator("#push-status")).to_have_text("Tento prohlížeč upozornění nedostává.")
    # The service worker is the site's own, at its root.
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == f"{platform.url}/", scope
    page.click("#push-on")
    expect(page.locator("#push-status")).to_have_text("Tento prohlížeč upozornění dostává.")
    # Subscribed with the API's VAPID key (an uncompressed P-256 point: 65 bytes).
    assert page.evaluate("window.__pushSubscribeCalls") == 1
    assert page.evaluate("window.__pushKeyLength") == 65
    query = f"?endpoint={ENDPOINT}"
    assert get(f"{platform.citizen.base}/api/v1/me/notifications/webpush{query}", token) == {"status": True}
    page.click("#push-off")
    expect(page.locator("#push-status")).to_have_text("Tento prohlížeč upozornění nedostává.")
    assert get(f"{platform.citizen.base}/api/v1/me/notifications/webpush{query}", token) == {"status": False}


def test_signed_out_the_pages_ask_to_sign_in(web, platform):
    web.goto("/notifications")
    page = web.page
    expect(page.locator("#notifications-title")).to_have_text("Upozornění")
    expect(page.locator("#notifications-page")).to_contain_text("Nejdříve se přihlaste.")
    expect(page.locator("#main-nav a[href='/notifications']")).to_be_hidden()
    web.check("notifications-signed-out")
