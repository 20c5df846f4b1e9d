// A report's page in the officers' console at /queue/reports/<id> (docs/web-app.md, "The
// officers' console"): the report with every photo (also those marked explicit), each issue the
// officer may see with its statements and the actions the API has on it (accept, resolve, move,
// mark as a duplicate, dismiss the suggestions, a statement with a photo, from a template), the
// duplicate suggestions on a small map, and the audit trail. When another officer acted first
// (the API's 409) the page is read again and says what happened, never an error code.

const SHORTCUTS = [
  ["a", "shortcutAccept"],
  ["r", "shortcutResolve"],
  ["s", "shortcutStatement"],
  ["u", "shortcutBack"],
];

/// `app`: {api, t, el, present, navigate, formatDate, statusText, createMap, templates, queue, flash}.
export function createCasework(app) {
  const { el, present } = app;
  const root = document.getElementById("casework-page");
  let current = null; // {id, report, details, audit, suggestions: Map(issue id → [])}
  let smallMap = null;
  let mapBox = null;

  async function load(id) {
    const path = `/admin/reports/${encodeURIComponent(id)}`;
    const [report, details, audit] = await Promise.all([
      app.api.citizen(path, { fresh: true }),
      app.api.citizen(`${path}/issues`, { fresh: true }),
      app.api.citizen(`${path}/audit`, { fresh: true }).catch(() => ({ entries: [] })),
    ]);
    const suggestions = new Map();
    await Promise.all(
      details.issues
        .filter((issue) => issue.has_possible_duplicates)
        .map(async (issue) => {
          const found = await app.api
            .citizen(`/admin/issues/${encodeURIComponent(issue.issue_id)}/duplicate-suggestions`, { fresh: true })
            .catch(() => ({ suggestions: [] }));
          suggestions.set(issue.issue_id, found.suggestions);
        }),
    );
    await app.templates.load({ fresh: true });
    return { id, report, details: details.issues, audit: audit.entries, suggestions };
  }

  /// What another officer did to `issueId` last, from the report's audit trail, as a sentence.
  async function whatHappened(reportId, issueId) {
    try {
      const audit = await app.api.citizen(`/admin/reports/${encodeURIComponent(reportId)}/audit`, { fresh: true });
      const last = [...audit.entries].reverse().find((entry) => entry.issue_id === issueId && entry.action.startsWith("status:"));
      if (last) {
        return app.t("whatHappened", {
          who: last.actor ?? app.t("someone"),
          what: app.t(`did.${last.action.slice("status:".length)}`),
          when: app.formatDate(last.at),
        });
      }
    } catch (error) {
      console.error(error);
    }
    return app.t("changedMeanwhile");
  }

  /// A statement on an issue (multipart, as the API takes it), with an optional file.
  async function postStatement(issueId, { text, final = false, file = null }) {
    const form = new FormData();
    form.append("text", text);
    form.append("final", final ? "true" : "false");
    if (file) form.append("media", file, file.name);
    return app.api.citizen(`/admin/issues/${encodeURIComponent(issueId)}/statements`, { method: "POST", body: form });
  }

  /// Runs one action of the page; after it (done or refused) the page is read again. A 409 (or
  /// the issue gone from the officer's categories) is told as what happened.
  async function act(button, issueId, run, doneKey) {
    button.disabled = true;
    let message;
    try {
      await run();
      message = app.t(doneKey);
    } catch (error) {
      message =
        error.status === 409 || (error.status === 404 && issueId)
          ? `${app.t("someoneFirst")} ${await whatHappened(current.id, issueId)} ${app.t("pageRefreshed")}`
          : error.userinfo || app.t("failed");
    }
    await show(current.id, { keepFocus: true });
    app.flash(message);
    // The focus goes back to the issue acted on (its heading), else to the page's.
    const section = issueId && root.querySelector(`section.issue[data-issue="${CSS.escape(issueId)}"] h2`);
    (section || root.querySelector("h1"))?.focus();
  }

  function photos() {
    const media = current.report.media ?? [];
    if (!media.length) return null;
    return el(
      "ul",
      { class: "photos", "aria-label": app.t("photos") },
      ...media.map((item, index) => {
        const remove = el("button", { type: "button", class: "danger", "data-media": item.id }, app.t("deletePhoto"));
        remove.addEventListener("click", () => {
          // A second press confirms: one press alone never deletes.
          if (remove.dataset.confirm !== "yes") {
            remove.dataset.confirm = "yes";
            remove.textContent = app.t("deletePhotoConfirm");
            return;
          }
          act(remove, null, () => app.api.citizen(`/admin/reports/${encodeURIComponent(current.id)}/media/${encodeURIComponent(item.id)}`, { method: "DELETE" }), "photoDeleted");
        });
        return el("li", {}, el("img", { src: item.public_url, alt: app.t("photoAlt", { n: index + 1 }), loading: "lazy" }), remove);
      }),
    );
  }

  function button(id, key, onClick, props = {}) {
    const element = el("button", { type: "button", id, ...props }, app.t(key));
    element.addEventListener("click", () => onClick(element));
    return element;
  }

  function select(id, options, chosen = "") {
    return el("select", { id }, ...options.map(([value, text]) => el("option", { value, selected: value === chosen }, text)));
  }

  function actions(issue) {
    const id = issue.issue_id;
    const slug = id.slice(0, 8);
    const steps = [];
    const templateFor = (status) => app.templates.forStatus(issue.category_id, status);
    const withTemplate = (status) => {
      const template = templateFor(status);
      if (!template) return [null, () => null];
      const box = el("input", { type: "checkbox", id: `with-template-${status}-${slug}` });
      const label = el("label", { class: "check", htmlFor: box.id }, box, app.t("withTemplate", { title: template.title }));
      return [label, () => (box.checked ? { text: app.templates.text(template), final: status === "resolved" } : null)];
    };
    if (issue.status === "open") {
      const [option, statement] = withTemplate("accepted");
      steps.push(
        el(
          "p",
          { class: "actions" },
          button(`accept-${slug}`, "accept", (b) =>
            act(b, id, async () => {
              await app.api.citizen(`/admin/issues/${encodeURIComponent(id)}/accept`, { method: "POST" });
              const chosen = statement();
              if (chosen) await postStatement(id, chosen);
            }, "acceptedDone"),
            { class: "primary accept", "aria-keyshortcuts": "a" },
          ),
          option,
        ),
      );
    }
    if (issue.status === "accepted") {
      const [option, statement] = withTemplate("resolved");
      steps.push(
        el(
          "p",
          { class: "actions" },
          button(`resolve-${slug}`, "resolve", (b) =>
            act(b, id, async () => {
              await app.api.citizen(`/admin/issues/${encodeURIComponent(id)}/resolve`, { method: "POST" });
              const chosen = statement();
              if (chosen) await postStatement(id, chosen);
            }, "resolvedDone"),
            { class: "primary resolve", "aria-keyshortcuts": "r" },
          ),
          option,
        ),
      );
    }
    if (issue.status === "open" || issue.status === "accepted") {
      const target = select(`move-target-${slug}`, [["", app.t("chooseCategory")], ...app.queue.categories().filter((c) => c.category_id !== issue.category_id).map((c) => [c.category_id, c.name])]);
      steps.push(
        el(
          "p",
          { class: "actions" },
          el("label", { htmlFor: target.id }, app.t("moveTo")),
          target,
          button(`move-${slug}`, "move", (b) => {
            if (!target.value) return target.focus();
            return act(b, id, () => app.api.citizen(`/admin/issues/${encodeURIComponent(id)}/move`, { method: "POST", body: { category_id: target.value } }), "movedDone");
          }),
        ),
      );
      const parent = el("input", { id: `duplicate-of-${slug}`, size: 36, "aria-describedby": `duplicate-help-${slug}` });
      steps.push(
        el(
          "p",
          { class: "actions" },
          el("label", { htmlFor: parent.id }, app.t("duplicateOf")),
          parent,
          button(`duplicate-${slug}`, "markDuplicate", (b) => {
            if (!parent.value.trim()) return parent.focus();
            return act(b, id, () => app.api.citizen(`/admin/issues/${encodeURIComponent(id)}/duplicate-of`, { method: "POST", body: { parent_id: parent.value.trim() } }), "duplicateDone");
          }),
          el("span", { id: `duplicate-help-${slug}`, class: "help" }, app.t("duplicateHelp")),
        ),
      );
    }
    return steps;
  }

  function statementForm(issue) {
    const slug = issue.issue_id.slice(0, 8);
    const text = el("textarea", { id: `statement-text-${slug}`, class: "statement-text", rows: 4, maxLength: 4096, required: true });
    const template = select(`statement-template-${slug}`, [["", app.t("noTemplate")], ...app.templates.forCategory(issue.category_id).map((t) => [t.template_id, t.title])]);
    template.addEventListener("change", () => {
      const chosen = app.templates.find(template.value);
      if (chosen) text.value = app.templates.text(chosen);
    });
    const final = el("input", { type: "checkbox", id: `statement-final-${slug}` });
    const file = el("input", { type: "file", id: `statement-file-${slug}`, accept: "image/jpeg,image/png,image/webp,image/heic,application/pdf" });
    const send = el("button", { type: "submit", class: "primary" }, app.t("sendStatement"));
    const form = el(
      "form",
      { class: "statement-form stack", "aria-label": app.t("statementFor", { category: issue.category_name }) },
      el("label", { htmlFor: template.id }, app.t("template")),
      template,
      el("label", { htmlFor: text.id }, app.t("statementText")),
      text,
      el("label", { class: "check", htmlFor: final.id }, final, app.t("finalStatement")),
      el("label", { htmlFor: file.id }, app.t("statementFile")),
      file,
      send,
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!text.value.trim()) return text.focus();
      return act(send, issue.issue_id, () => postStatement(issue.issue_id, { text: text.value.trim(), final: final.checked, file: file.files[0] ?? null }), "statementSent");
    });
    return form;
  }

  function suggestionsOf(issue) {
    const found = current.suggestions.get(issue.issue_id);
    if (!issue.has_possible_duplicates || !found) return null;
    const slug = issue.issue_id.slice(0, 8);
    const dismiss = button(`dismiss-${slug}`, "dismissSuggestions", (b) =>
      act(b, issue.issue_id, () => app.api.citizen(`/admin/issues/${encodeURIComponent(issue.issue_id)}/duplicate-suggestions`, { method: "DELETE" }), "suggestionsDismissed"),
    );
    return el(
      "section",
      { class: "suggestions", "aria-labelledby": `suggestions-title-${slug}` },
      el("h3", { id: `suggestions-title-${slug}` }, app.t("possibleDuplicates")),
      el(
        "ul",
        {},
        ...found.map((s) =>
          el(
            "li",
            { "data-report": s.report_id },
            app.routeLink(`/queue/reports/${encodeURIComponent(s.report_id)}`, s.report_title),
            ` · ${app.t("suggestionFacts", { metres: Math.round(s.distance_m), similarity: Math.round(s.similarity * 100) })} `,
            button(`duplicate-of-${s.issue.issue_id.slice(0, 8)}`, "markDuplicateOfThis", (b) =>
              act(b, issue.issue_id, () => app.api.citizen(`/admin/issues/${encodeURIComponent(issue.issue_id)}/duplicate-of`, { method: "POST", body: { parent_id: s.issue.issue_id } }), "duplicateDone"),
            ),
          ),
        ),
      ),
      el("p", { class: "actions" }, dismiss),
    );
  }

  function statements(issue) {
    if (!issue.statements.length) return el("p", { class: "muted" }, app.t("noStatements"));
    return el(
      "ol",
      { class: "statements" },
      ...issue.statements.map((s) =>
        el(
          "li",
          { class: "statement" },
          el("p", {}, s.text),
          el("footer", {}, `${s.author} · `, el("time", { dateTime: s.inserted_at }, app.formatDate(s.inserted_at)), s.final ? ` · ${app.t("finalStatement")}` : ""),
        ),
      ),
    );
  }

  function issueSection(issue) {
    const slug = issue.issue_id.slice(0, 8);
    return el(
      "section",
      { class: "issue", "data-issue": issue.issue_id, "aria-labelledby": `issue-title-${slug}` },
      el(
        "h2",
        { id: `issue-title-${slug}`, tabIndex: -1 },
        `${issue.category_name}: `,
        el("span", { class: `status status-${issue.status}`, "data-status": issue.status }, app.t(`status.${issue.status}`)),
      ),
      ...actions(issue),
      suggestionsOf(issue),
      el("h3", {}, app.t("statements")),
      statements(issue),
      issue.status === "moved" ? null : statementForm(issue),
    );
  }

  /// An audit entry's action in words: a state by its name, the others by theirs.
  function auditText(entry) {
    const category = app.queue.categories().find((c) => c.category_id === entry.detail?.category_id)?.name;
    const words = entry.action.startsWith("status:")
      ? app.t(`status.${entry.action.slice("status:".length)}`)
      : app.t(`audit.${entry.action}`);
    const text = words.startsWith("audit.") ? entry.action : words;
    return category ? `${text} (${category})` : text;
  }

  function auditTrail() {
    return el(
      "section",
      { class: "audit", "aria-labelledby": "audit-title" },
      el("h2", { id: "audit-title" }, app.t("auditTrail")),
      el(
        "ol",
        { id: "audit-list" },
        ...[...current.audit].reverse().map((entry) =>
          el("li", { "data-action": entry.action }, el("time", { dateTime: entry.at }, app.formatDate(entry.at)), ` · ${entry.actor ?? app.t("someone")} · ${auditText(entry)}`),
        ),
      ),
    );
  }

  function render() {
    const { report } = current;
    const [lon, lat] = report.location?.coordinates ?? [];
    root.replaceChildren(
      ...present([
        el("p", {}, app.routeLink(app.queue.lastPath(), app.t("backToQueue"), { id: "back-to-queue", "aria-keyshortcuts": "u" })),
        el("h1", { id: "casework-title", tabIndex: -1 }, report.title),
        el(
          "p",
          { class: "meta" },
          el("span", { class: `status status-${report.status ?? "open"}`, id: "casework-status" }, app.statusText(report)),
          " · ",
          el("time", { dateTime: report.inserted_at }, app.formatDate(report.inserted_at)),
          ` · ${app.t("voteCount", { count: report.votes_count ?? 0 })}`,
          Number.isFinite(lat) ? ` · ${lat.toFixed(5)}, ${lon.toFixed(5)}` : "",
          " · ",
          app.routeLink(`/reports/${encodeURIComponent(report.id)}`, app.t("publicPage")),
        ),
        el(
          "p",
          { class: "shortcut-line muted" },
          app.t("shortcuts"),
          ": ",
          ...SHORTCUTS.flatMap(([key, text], i) => [i ? ", " : "", el("kbd", {}, key), ` ${app.t(text)}`]),
        ),
        report.description ? el("p", { class: "description" }, report.description) : null,
        photos(),
        ...current.details.map(issueSection),
        suggestionMap(),
        auditTrail(),
      ]),
    );
    drawSuggestions().catch((error) => console.error(error));
  }

  /// The report and its suggested duplicates on a small map (when there are suggestions).
  function suggestionMap() {
    const any = [...current.suggestions.values()].some((list) => list.length);
    if (!any) return null;
    mapBox ??= el("div", { id: "suggestion-map", class: "map small-map", role: "region", tabIndex: 0, "aria-label": app.t("suggestionMap") });
    return mapBox;
  }

  async function drawSuggestions() {
    if (!mapBox?.isConnected) return;
    smallMap ??= app.createMap(mapBox, (id) => app.navigate(`/queue/reports/${encodeURIComponent(id)}`));
    const ids = [...new Set([...current.suggestions.values()].flat().map((s) => s.report_id))];
    const others = await Promise.all(ids.map((id) => app.api.citizen(`/admin/reports/${encodeURIComponent(id)}`).catch(() => null)));
    const shown = [current.report, ...others.filter(Boolean)];
    smallMap.invalidate();
    smallMap.showReports(shown, app.statusText);
    smallMap.highlight(current.report.id);
    smallMap.fit();
  }

  async function show(id, { keepFocus = false } = {}) {
    if (!app.auth.signedIn() || !app.auth.officer()) {
      current = null;
      root.replaceChildren(el("h1", { id: "casework-title", tabIndex: -1 }, app.t("queue")), el("p", {}, app.t(app.auth.signedIn() ? "officersOnly" : "signInFirst")));
      root.querySelector("h1").focus();
      return;
    }
    if (!keepFocus) root.replaceChildren(el("p", { role: "status" }, app.t("loading")));
    try {
      await app.queue.ensureCategories();
      current = await load(id);
      document.title = `${current.report.title} – ${app.t("queue")}`;
      render();
      if (!keepFocus) root.querySelector("h1")?.focus();
    } catch (error) {
      current = null;
      root.replaceChildren(
        el("h1", { id: "casework-title", tabIndex: -1 }, app.t("reportMissing")),
        el("p", {}, error.userinfo || app.t("loadFailed")),
        el("p", {}, app.routeLink(app.queue.lastPath(), app.t("backToQueue"))),
      );
      root.querySelector("h1").focus();
    }
  }

  // The page's shortcuts: only while it is shown and the focus is not in a field.
  document.addEventListener("keydown", (event) => {
    if (root.hidden || !current || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest?.("input, textarea, select, [contenteditable], .leaflet-container")) return;
    const target = { a: "button.accept", r: "button.resolve", s: ".statement-text", u: "#back-to-queue" }[event.key];
    const found = target && root.querySelector(target);
    if (!found) return;
    event.preventDefault();
    if (event.key === "a" || event.key === "r") found.click();
    else found.focus();
  });

  return {
    show,
    whatHappened,
    postStatement,
    rerender: () => current && !root.hidden && render(),
    current: () => current?.id ?? null,
  };
}
