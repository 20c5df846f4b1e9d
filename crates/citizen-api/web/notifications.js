// The citizen's notifications at /notifications (docs/web-app.md, "Notifications"): the feed
// newest first with read marks, the unread badge in the navigation, the delivery settings
// (at once or as a digest), the e-mail subscription and web push in this browser (a service
// worker at /sw.js, the VAPID public key from GET /notifications/webpush/public-key).

const PAGE = 20;
const INTERVALS = ["", "daily", "weekly", "monthly"];

/// base64url → the bytes a push subscription's `applicationServerKey` takes.
function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const text = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/// `app`: {api, t, auth, el, routeLink, sitePath, formatDate, config, navigate}.
export function createNotifications(app) {
  const { el } = app;
  const root = document.getElementById("notifications-page");
  const badge = document.getElementById("unread-badge");
  let entries = [];
  let more = false;
  let unread = 0;

  // The API counts up to 10 (spec 4.1): 10 reads "10 or more".
  const shown = (count) => (count >= 10 ? "10+" : String(count));

  // Bumped by every count shown: a refresh asked before a newer count arrived (a read mark's
  // answer, while the navigation it caused refreshes) is stale and dropped.
  let counted = 0;

  function showUnread(count) {
    counted += 1;
    unread = count;
    badge.hidden = !count;
    // The number for the eye, the sentence for a screen reader (a span takes no aria-label).
    badge.replaceChildren(
      ...(count
        ? [el("span", { "aria-hidden": "true" }, shown(count)), el("span", { class: "visually-hidden" }, app.t("unreadCount", { count: shown(count) }))]
        : []),
    );
    const title = root.querySelector("#unread-now");
    if (title) title.textContent = app.t("unreadCount", { count: shown(count) });
  }

  async function refreshUnread() {
    if (!app.auth.signedIn()) return showUnread(0);
    const asked = counted;
    try {
      const body = await app.api.citizen("/me/notifications/unread-count", { fresh: true });
      if (counted === asked) showUnread(body?.unread_count ?? 0);
    } catch (error) {
      console.error(error);
    }
  }

  async function markRead(tags) {
    if (!tags.length) return;
    const body = await app.api.citizen("/me/notifications/read", { method: "PATCH", body: { notificationTags: tags } });
    const read = new Map((body?.notifications ?? []).map((n) => [n.tag, n.read_at]));
    for (const entry of entries) if (read.has(entry.tag)) entry.read_at = read.get(entry.tag);
    showUnread(body?.unread_count ?? unread);
    renderFeed();
  }

  function entryItem(entry) {
    const path = entry.url ? app.sitePath(entry.url, app.config.publicUrl) : null;
    const title = entry.url
      ? path
        ? app.routeLink(path, entry.title, { class: "entry-link" })
        : el("a", { href: entry.url, class: "entry-link" }, entry.title)
      : el("span", {}, entry.title);
    // Opening an entry marks it read.
    if (entry.url && !entry.read_at) title.addEventListener("click", () => markRead([entry.tag]).catch(console.error));
    const item = el(
      "li",
      { class: entry.read_at ? "entry read" : "entry unread", "data-tag": entry.tag },
      el("p", { class: "entry-title" }, entry.read_at ? null : el("span", { class: "visually-hidden" }, `${app.t("unread")}: `), title),
      entry.body ? el("p", { class: "entry-body" }, entry.body) : null,
      el("p", { class: "meta" }, el("time", { dateTime: entry.sent_at }, app.formatDate(entry.sent_at))),
    );
    if (!entry.read_at) {
      const button = el("button", { type: "button", class: "mark-read" }, app.t("markRead"));
      button.setAttribute("aria-label", `${app.t("markRead")}: ${entry.title}`);
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          await markRead([entry.tag]);
          root.querySelector("#feed-title")?.focus();
        } catch (error) {
          button.disabled = false;
          say(error.userinfo || app.t("failed"));
        }
      });
      item.append(button);
    }
    return item;
  }

  function say(text) {
    const status = root.querySelector("#feed-status");
    if (status) status.textContent = text;
  }

  function renderFeed() {
    const list = root.querySelector("#feed");
    if (!list) return;
    list.replaceChildren(...entries.map(entryItem));
    say(entries.length ? "" : app.t("noNotifications"));
    root.querySelector("#feed-more").hidden = !more;
    root.querySelector("#mark-all").hidden = !entries.some((e) => !e.read_at);
  }

  async function loadFeed({ append = false } = {}) {
    const last = append ? entries[entries.length - 1] : null;
    const query = app.api.query({ limit: PAGE, pagecursor: last ? [last.sent_at, last.inserted_at] : undefined });
    try {
      const page = await app.api.citizen(`/me/notifications${query}`, { fresh: true });
      entries = append ? entries.concat(page?.notifications ?? []) : page?.notifications ?? [];
      more = Boolean(page?.hasNextOffset);
      renderFeed();
    } catch (error) {
      say(error.userinfo || app.t("pageFailed"));
    }
  }

  // --- Settings and channels ---

  function settingsForm(settings) {
    const enabled = el("input", { type: "checkbox", id: "notify-enabled", checked: settings.enabled });
    const interval = el(
      "select",
      { id: "notify-interval" },
      INTERVALS.map((value) => el("option", { value, selected: (settings.interval ?? "") === value }, app.t(`interval.${value || "now"}`))),
    );
    const message = el("p", { id: "settings-status", role: "status" });
    const form = el(
      "form",
      { id: "notify-settings", class: "stack" },
      el("p", { class: "check" }, enabled, el("label", { htmlFor: "notify-enabled" }, app.t("notifyEnabled"))),
      el("label", { htmlFor: "notify-interval" }, app.t("notifyInterval")),
      interval,
      el("p", { class: "actions" }, el("button", { type: "submit", class: "primary" }, app.t("save"))),
      message,
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await app.api.citizen("/me/notifications/settings", {
          method: "PUT",
          body: { enabled: enabled.checked, interval: interval.value || null },
        });
        message.textContent = app.t("saved");
      } catch (error) {
        message.textContent = error.userinfo || app.t("failed");
      }
    });
    return form;
  }

  function emailBox(subscribed) {
    const message = el("p", { id: "email-status", role: "status" }, app.t(subscribed ? "emailOn" : "emailOff"));
    const button = el("button", { type: "button", id: subscribed ? "email-off" : "email-on" }, app.t(subscribed ? "emailStop" : "emailStart"));
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        if (subscribed) await app.api.citizen("/me/notifications/email", { method: "DELETE" });
        else await app.api.citizen("/me/notifications/email", { method: "POST" });
        await renderChannels();
        root.querySelector(subscribed ? "#email-on" : "#email-off")?.focus();
      } catch (error) {
        message.textContent = error.userinfo || app.t("failed");
        button.disabled = false;
      }
    });
    return el("section", { class: "channel", "aria-labelledby": "email-title" }, el("h3", { id: "email-title" }, app.t("emailTitle")), message, button);
  }

  async function pushState() {
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) return { supported: false };
    const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    const subscription = await registration.pushManager.getSubscription();
    let subscribed = false;
    if (subscription) {
      const body = await app.api.citizen(`/me/notifications/webpush${app.api.query({ endpoint: subscription.endpoint })}`, { fresh: true });
      subscribed = Boolean(body?.status);
    }
    return { supported: true, registration, subscription, subscribed };
  }

  async function pushBox() {
    const message = el("p", { id: "push-status", role: "status" });
    const box = el("section", { class: "channel", "aria-labelledby": "push-title" }, el("h3", { id: "push-title" }, app.t("pushTitle")), message);
    let state;
    try {
      state = await pushState();
    } catch (error) {
      console.error(error);
      state = { supported: false };
    }
    if (!state.supported) {
      message.textContent = app.t("pushUnsupported");
      return box;
    }
    message.textContent = app.t(state.subscribed ? "pushOn" : "pushOff");
    const button = el("button", { type: "button", id: state.subscribed ? "push-off" : "push-on" }, app.t(state.subscribed ? "pushStop" : "pushStart"));
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        if (state.subscribed) {
          await app.api.citizen(`/me/notifications/webpush${app.api.query({ endpoint: state.subscription.endpoint })}`, { method: "DELETE" });
          await state.subscription.unsubscribe().catch(() => false);
        } else {
          const { public_key: key } = await app.api.citizen("/notifications/webpush/public-key", { signedIn: false });
          if ((await Notification.requestPermission()) !== "granted") {
            message.textContent = app.t("pushDenied");
            button.disabled = false;
            return;
          }
          const subscription =
            state.subscription ??
            (await state.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }));
          const { endpoint, keys } = subscription.toJSON();
          await app.api.citizen("/me/notifications/webpush", { method: "POST", body: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } } });
        }
        await renderChannels();
        root.querySelector(state.subscribed ? "#push-on" : "#push-off")?.focus();
      } catch (error) {
        message.textContent = error.userinfo || app.t("pushFailed");
        button.disabled = false;
      }
    });
    box.append(button);
    return box;
  }

  async function renderChannels() {
    const holder = root.querySelector("#channels");
    try {
      const [settings, email] = await Promise.all([
        app.api.citizen("/me/notifications/settings", { fresh: true }),
        app.api.citizen("/me/notifications/email", { fresh: true }),
      ]);
      holder.replaceChildren(settingsForm(settings), emailBox(Boolean(email?.status)), await pushBox());
    } catch (error) {
      holder.replaceChildren(el("p", { role: "status" }, error.userinfo || app.t("pageFailed")));
    }
  }

  function render() {
    if (!app.auth.signedIn()) {
      root.replaceChildren(el("h1", { id: "notifications-title", tabIndex: -1 }, app.t("notifications")), el("p", {}, app.t("signInFirst")));
      return;
    }
    const markAll = el("button", { type: "button", id: "mark-all", hidden: true }, app.t("markAllRead"));
    markAll.addEventListener("click", () =>
      markRead(entries.filter((e) => !e.read_at).map((e) => e.tag)).catch((error) => say(error.userinfo || app.t("failed"))),
    );
    const moreButton = el("button", { type: "button", id: "feed-more", hidden: true }, app.t("more"));
    moreButton.addEventListener("click", () => loadFeed({ append: true }));
    root.replaceChildren(
      el("h1", { id: "notifications-title", tabIndex: -1 }, app.t("notifications")),
      el("p", { id: "unread-now" }, app.t("unreadCount", { count: shown(unread) })),
      el(
        "section",
        { "aria-labelledby": "feed-title" },
        el("h2", { id: "feed-title", tabIndex: -1 }, app.t("feed")),
        el("p", { class: "actions" }, markAll),
        el("p", { id: "feed-status", role: "status" }, app.t("loading")),
        el("ol", { id: "feed", class: "feed" }),
        moreButton,
      ),
      el("section", { "aria-labelledby": "delivery-title" }, el("h2", { id: "delivery-title" }, app.t("delivery")), el("div", { id: "channels" })),
    );
  }

  async function show({ keepFocus = false } = {}) {
    document.title = `${app.t("notifications")} – ${app.t("appName")}`;
    render();
    if (!keepFocus) root.querySelector("h1")?.focus();
    if (!app.auth.signedIn()) return;
    await Promise.all([refreshUnread(), loadFeed(), renderChannels()]);
  }

  window.addEventListener("focus", refreshUnread);
  return { show, refreshUnread, rerender: () => !root.hidden && show({ keepFocus: true }) };
}
