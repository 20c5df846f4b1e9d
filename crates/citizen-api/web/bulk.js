// The queue's bulk actions (docs/web-app.md, "The officers' console"): the reports selected in
// the queue are accepted, resolved or moved with one optional statement, one issue after the
// other through the same API calls as the issue page; each report's outcome is listed, and an
// issue another officer changed since it was selected (the API's 409) is named with what
// happened to it, while the rest go through.

/// What a bulk action applies to: the issues of a selected row in these states.
const APPLIES = {
  accept: ["open"],
  resolve: ["accepted"],
  move: ["open", "accepted"],
};

/// `app`: {api, t, el, queue, templates, whatHappened, postStatement}.
export function createBulk(app) {
  const { el } = app;
  let box = null; // the panel, built once per language
  let builtFor = null;
  let items = [];

  function build() {
    const options = (pairs) => pairs.map(([value, text]) => el("option", { value }, text));
    const action = el("select", { id: "bulk-action" }, ...options([["accept", app.t("bulkAccept")], ["resolve", app.t("bulkResolve")], ["move", app.t("bulkMove")]]));
    const target = el("select", { id: "bulk-category" }, el("option", { value: "" }, app.t("chooseCategory")));
    const template = el("select", { id: "bulk-template" }, el("option", { value: "" }, app.t("noTemplate")));
    const text = el("textarea", { id: "bulk-text", rows: 3, maxLength: 4096 });
    const apply = el("button", { type: "button", id: "bulk-apply", class: "primary" }, app.t("bulkApply"));
    const clear = el("button", { type: "button", id: "bulk-clear" }, app.t("clearSelection"));
    const outcome = el("div", { id: "bulk-outcome", role: "status" });
    const targetRow = el("p", { class: "field", id: "bulk-category-field" }, el("label", { htmlFor: "bulk-category" }, app.t("moveTo")), target);
    const showTarget = () => {
      targetRow.hidden = action.value !== "move";
    };
    action.addEventListener("change", showTarget);
    showTarget();
    template.addEventListener("change", () => {
      const chosen = app.templates.find(template.value);
      if (chosen) text.value = app.templates.text(chosen);
    });
    apply.addEventListener("click", () => run().catch((error) => console.error(error)));
    clear.addEventListener("click", clearSelection);
    return el(
      "section",
      { id: "bulk", class: "bulk", "aria-labelledby": "bulk-title", tabIndex: -1 },
      el("h2", { id: "bulk-title" }, ""),
      el("div", { id: "bulk-form", class: "bulk-form" },
        el("p", { class: "field" }, el("label", { htmlFor: "bulk-action" }, app.t("bulkWhat")), action),
        targetRow,
        el("p", { class: "field" }, el("label", { htmlFor: "bulk-template" }, app.t("template")), template),
        el("p", { class: "field" }, el("label", { htmlFor: "bulk-text" }, app.t("bulkStatement")), text),
        el("p", { class: "actions" }, apply, clear),
      ),
      outcome,
    );
  }

  function panel() {
    if (!box || builtFor !== app.i18n.language) {
      box = build();
      builtFor = app.i18n.language;
    }
    fillChoices();
    return box;
  }

  /// The categories to move to and the templates, as the queue and the templates know them.
  function fillChoices() {
    const target = box.querySelector("#bulk-category");
    const chosen = target.value;
    target.replaceChildren(
      el("option", { value: "" }, app.t("chooseCategory")),
      ...app.queue.categories().map((c) => el("option", { value: c.category_id, selected: c.category_id === chosen }, c.name)),
    );
    const template = box.querySelector("#bulk-template");
    template.replaceChildren(el("option", { value: "" }, app.t("noTemplate")), ...app.templates.options());
  }

  function clearSelection() {
    app.queue.clearSelection();
    for (const pick of document.querySelectorAll("#queue-table .pick")) pick.checked = false;
    render([]);
  }

  /// The selection changed: the panel says how many are selected and shows its form only then.
  function render(selection) {
    items = selection;
    if (!box) return;
    box.querySelector("#bulk-title").textContent = app.t("selectedCount", { count: items.length });
    box.querySelector("#bulk-form").hidden = items.length === 0;
  }

  async function applyOne(report, action, target, text, final) {
    const issues = report.issues.filter((issue) => APPLIES[action].includes(issue.status) && issue.category_id !== target);
    if (!issues.length) return { report, ok: false, reason: app.t("bulkNothing") };
    const reasons = [];
    for (const issue of issues) {
      const path = `/admin/issues/${encodeURIComponent(issue.issue_id)}`;
      try {
        const changed =
          action === "move"
            ? await app.api.citizen(`${path}/move`, { method: "POST", body: { category_id: target } })
            : await app.api.citizen(`${path}/${action}`, { method: "POST" });
        if (text) await app.postStatement(changed.issue_id, { text, final });
      } catch (error) {
        reasons.push(error.status === 409 || error.status === 404 ? await app.whatHappened(report.id, issue.issue_id) : error.userinfo || app.t("failed"));
      }
    }
    return { report, ok: reasons.length === 0, reason: reasons.join(" ") };
  }

  async function run() {
    const action = box.querySelector("#bulk-action").value;
    const target = box.querySelector("#bulk-category").value;
    const text = box.querySelector("#bulk-text").value.trim();
    const outcome = box.querySelector("#bulk-outcome");
    if (!items.length) return;
    if (action === "move" && !target) {
      outcome.replaceChildren(el("p", { class: "error" }, app.t("chooseCategoryFirst")));
      box.querySelector("#bulk-category").focus();
      return;
    }
    const apply = box.querySelector("#bulk-apply");
    apply.disabled = true;
    app.queue.setBusy(true);
    const results = [];
    try {
      for (const report of items) {
        outcome.replaceChildren(el("p", {}, app.t("bulkProgress", { done: results.length, count: items.length })));
        results.push(await applyOne(report, action, target, text, action === "resolve"));
      }
    } finally {
      apply.disabled = false;
    }
    const failed = results.filter((r) => !r.ok);
    outcome.replaceChildren(
      el("p", { id: "bulk-summary" }, app.t("bulkDone", { ok: results.length - failed.length, failed: failed.length })),
      failed.length
        ? el(
            "ul",
            { id: "bulk-failures" },
            ...failed.map((r) => el("li", { "data-report": r.report.id }, el("strong", {}, r.report.title), `: ${r.reason}`)),
          )
        : null,
    );
    if (!failed.length) box.querySelector("#bulk-text").value = "";
    clearSelection();
    app.queue.setBusy(false);
    box.focus();
  }

  return {
    panel,
    render,
    focus: () => (items.length ? box?.querySelector("#bulk-action") : box)?.focus(),
    rerender: () => {
      box = null;
    },
  };
}
