// A report's page at /reports/<id> (docs/web-app.md, "A report's page"): title, description,
// photos, derived status, the public timeline newest first, the vote count; signed in, vote and
// unvote with the pool shown.

/// `app`: {api, t, auth, el, statusText, formatDate}.
export function createReportPage(app) {
  const { el, present } = app;
  const root = document.getElementById("report-page");
  let current = null; // {id, report, steps, votes}

  async function loadVotes(id, fresh) {
    if (!app.auth.signedIn()) return null;
    try {
      return await app.api.citizen(`/me/vote-tokens/${encodeURIComponent(id)}`, { fresh });
    } catch (error) {
      console.error(error);
      return null;
    }
  }

  function timeline(steps) {
    // Newest first: the steps come chronologically, each step's statements newest first.
    const ordered = [...steps].reverse();
    if (!ordered.length) return el("p", { class: "muted" }, app.t("noTimeline"));
    return el(
      "ol",
      { class: "timeline" },
      ...ordered.map((step) =>
        el(
          "li",
          { "data-status": step.status },
          el(
            "p",
            { class: "step" },
            el("strong", {}, app.t(`status.${step.status}`)),
            " · ",
            el("time", { dateTime: step.date }, app.formatDate(step.date)),
            step.categoryName ? ` · ${step.categoryName}` : "",
          ),
          ...(step.statements ?? []).map((statement) =>
            el(
              "blockquote",
              { class: "statement" },
              el("p", {}, statement.text),
              el("footer", {}, el("time", { dateTime: statement.inserted_at }, app.formatDate(statement.inserted_at))),
            ),
          ),
        ),
      ),
    );
  }

  function votes() {
    const box = el("section", { class: "votes", "aria-labelledby": "votes-title" });
    box.append(
      el("h2", { id: "votes-title" }, app.t("votes")),
      el("p", { id: "vote-count" }, app.t("voteCount", { count: current.report.votes_count ?? 0 })),
    );
    if (!app.auth.signedIn()) {
      box.append(el("p", { class: "muted" }, app.t("signInToVote")));
      return box;
    }
    const mine = current.votes;
    if (mine) {
      box.append(
        el("p", { id: "vote-pool" }, app.t("votePool", { available: mine.available_tokens, mine: mine.active_tokens })),
      );
    }
    const voted = (mine?.active_tokens ?? 0) > 0;
    const button = el("button", { type: "button", id: voted ? "unvote" : "vote", class: "primary" }, app.t(voted ? "unvote" : "vote"));
    button.disabled = !voted && mine && mine.available_tokens < 1;
    const message = el("p", { id: "vote-message", role: "status" });
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const body = { target: current.id, count: 1 };
        if (voted) await app.api.citizen("/me/vote-token-revoke", { method: "PATCH", body });
        else await app.api.citizen("/me/vote-tokens", { method: "POST", body });
        await show(current.id, { keepFocus: true });
        document.getElementById(voted ? "vote" : "unvote")?.focus();
      } catch (error) {
        message.textContent = error.userinfo || app.t("failed");
        button.disabled = false;
      }
    });
    box.append(button, message);
    return box;
  }

  function render() {
    const { report, steps } = current;
    root.replaceChildren(
      ...present([
        el("p", {}, el("a", { href: "/", "data-route": "" }, app.t("backToMap"))),
        el("h1", { id: "report-title", tabIndex: -1 }, report.title),
        el(
          "p",
          { class: "meta" },
          el("span", { class: `status status-${report.status ?? "open"}`, id: "report-status" }, app.statusText(report)),
          " · ",
          el("time", { dateTime: report.inserted_at }, app.formatDate(report.inserted_at)),
        ),
        report.description ? el("p", { class: "description" }, report.description) : null,
        (report.media ?? []).length
          ? el(
              "ul",
              { class: "photos", "aria-label": app.t("photos") },
              ...report.media.map((media, index) =>
                el("li", {}, el("img", { src: media.public_url, alt: app.t("photoAlt", { n: index + 1 }), loading: "lazy" })),
              ),
            )
          : null,
        votes(),
        el("section", { class: "history", "aria-labelledby": "timeline-title" }, el("h2", { id: "timeline-title" }, app.t("timeline")), timeline(steps)),
      ]),
    );
  }

  async function show(id, { keepFocus = false } = {}) {
    if (!keepFocus) root.replaceChildren(el("p", { role: "status" }, app.t("loading")));
    try {
      const [report, status, votes] = await Promise.all([
        app.api.citizen(`/reports/${encodeURIComponent(id)}`, { fresh: keepFocus }),
        app.api.citizen(`/reports/${encodeURIComponent(id)}/status`, { fresh: keepFocus }).catch(() => ({ statuses: [] })),
        loadVotes(id, keepFocus),
      ]);
      current = { id, report, steps: status?.statuses ?? [], votes };
      document.title = `${report.title} – ${app.t("appName")}`;
      render();
      if (!keepFocus) root.querySelector("h1")?.focus();
    } catch (error) {
      current = null;
      root.replaceChildren(
        el("h1", { id: "report-title", tabIndex: -1 }, app.t("reportMissing")),
        el("p", {}, error.userinfo || app.t("loadFailed")),
        el("p", {}, el("a", { href: "/", "data-route": "" }, app.t("backToMap"))),
      );
    }
  }

  return {
    show,
    rerender: () => current && render(),
    current: () => current?.id ?? null,
  };
}
