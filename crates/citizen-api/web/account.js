// My data at /account (docs/web-app.md, "My data"; docs/privacy.md): a download of everything
// the platform holds about the citizen (POST /me/data-export hands out a link valid for a while)
// and the erasure of the account (DELETE /me), asked twice since it cannot be undone.

/// `app`: {api, t, auth, el, formatDate, navigate}.
export function createAccount(app) {
  const { el } = app;
  const root = document.getElementById("account-page");

  function exportLink(link) {
    if (!link) return el("p", { id: "export-link" }, app.t("exportNone"));
    return el(
      "p",
      { id: "export-link" },
      el("a", { href: link.download_url, download: "" }, app.t("exportDownload")),
      " ",
      el("span", { class: "muted" }, app.t("exportUntil", { until: app.formatDate(link.expires_at) })),
    );
  }

  async function exportBox() {
    let link = null;
    try {
      link = await app.api.citizen("/me/data-export", { fresh: true });
    } catch (error) {
      if (error.status !== 404) console.error(error);
    }
    const message = el("p", { id: "export-status", role: "status" });
    const holder = el("div", {}, exportLink(link));
    const button = el("button", { type: "button", id: "export-start" }, app.t(link ? "exportAgain" : "exportStart"));
    button.addEventListener("click", async () => {
      button.disabled = true;
      message.textContent = app.t("exportPreparing");
      try {
        const fresh = await app.api.citizen("/me/data-export", { method: "POST" });
        holder.replaceChildren(exportLink(fresh));
        message.textContent = app.t("exportReady");
        holder.querySelector("a")?.focus();
      } catch (error) {
        message.textContent = error.userinfo || app.t("failed");
      } finally {
        button.disabled = false;
      }
    });
    return el(
      "section",
      { "aria-labelledby": "export-title" },
      el("h2", { id: "export-title" }, app.t("exportTitle")),
      el("p", {}, app.t("exportHelp")),
      holder,
      button,
      message,
    );
  }

  function eraseBox() {
    const photos = el("input", { type: "checkbox", id: "erase-photos" });
    const confirm = el("button", { type: "button", id: "erase-confirm", class: "danger" }, app.t("eraseConfirm"));
    const cancel = el("button", { type: "button", id: "erase-cancel" }, app.t("cancel"));
    const message = el("p", { id: "erase-status", role: "alert", class: "error" });
    const step = el(
      "div",
      { id: "erase-step", class: "stack", hidden: true },
      el("p", {}, el("strong", {}, app.t("eraseWarning"))),
      el("p", { class: "check" }, photos, el("label", { htmlFor: "erase-photos" }, app.t("erasePhotos"))),
      el("p", { class: "actions" }, confirm, cancel),
    );
    const start = el("button", { type: "button", id: "erase-start", class: "danger" }, app.t("eraseStart"));
    start.addEventListener("click", () => {
      step.hidden = false;
      start.hidden = true;
      confirm.focus();
    });
    cancel.addEventListener("click", () => {
      step.hidden = true;
      start.hidden = false;
      start.focus();
    });
    confirm.addEventListener("click", async () => {
      confirm.disabled = true;
      message.textContent = "";
      try {
        await app.api.citizen("/me", { method: "DELETE", body: { confirm: "ERASE", remove_photos: photos.checked } });
        app.auth.signOut();
        app.navigate("/");
        app.flash(app.t("erased"));
      } catch (error) {
        message.textContent = error.userinfo || app.t("failed");
        confirm.disabled = false;
      }
    });
    return el(
      "section",
      { "aria-labelledby": "erase-title" },
      el("h2", { id: "erase-title" }, app.t("eraseTitle")),
      el("p", {}, app.t("eraseHelp")),
      start,
      step,
      message,
    );
  }

  async function show({ keepFocus = false } = {}) {
    document.title = `${app.t("myData")} – ${app.t("appName")}`;
    const title = el("h1", { id: "account-title", tabIndex: -1 }, app.t("myData"));
    if (!app.auth.signedIn()) {
      root.replaceChildren(title, el("p", {}, app.t("signInFirst")));
    } else {
      root.replaceChildren(title, el("p", { role: "status" }, app.t("loading")));
      root.replaceChildren(title, await exportBox(), eraseBox());
    }
    if (!keepFocus) title.focus();
  }

  return { show, rerender: () => !root.hidden && show({ keepFocus: true }) };
}
