// Reply templates (docs/web-app.md, "The officers' console"; /admin/reply-templates): the texts
// an officer starts a statement from, per report category and in the city's languages, offered
// in the statement forms and, when a template says so, with a step (accept, resolve). The page
// /queue/templates lists them by category and edits them.

const LANGUAGES = ["cs", "en", "uk"];

/// `app`: {api, t, el, present, i18n, queue, auth}.
export function createTemplates(app) {
  const { el } = app;
  const root = document.getElementById("templates-page");
  let all = null; // the officer's templates, read once per sign-in and after each change
  let editing = null; // the template being edited, or null for a new one

  async function load({ fresh = false } = {}) {
    if (all && !fresh) return all;
    try {
      all = (await app.api.citizen("/admin/reply-templates", { fresh: true })).templates;
    } catch (error) {
      console.error(error);
      all = [];
    }
    return all;
  }

  const find = (id) => (all ?? []).find((t) => t.template_id === id) ?? null;
  /// A template's text in the page's language, else in the first language it has.
  const text = (template) => template.texts[app.i18n.language] ?? LANGUAGES.map((l) => template.texts[l]).find(Boolean) ?? "";
  const forCategory = (categoryId) => (all ?? []).filter((t) => t.category_id === categoryId);
  const forStatus = (categoryId, status) => forCategory(categoryId).find((t) => t.applies_on === status) ?? null;
  const categoryName = (id) => app.queue.categories().find((c) => c.category_id === id)?.name ?? "";
  /// Every template as an <option> ("category: title").
  const options = () => (all ?? []).map((t) => el("option", { value: t.template_id }, `${categoryName(t.category_id)}: ${t.title}`));

  function editor() {
    const value = editing ?? { category_id: "", title: "", texts: {}, applies_on: null };
    const field = (id, label, control) => [el("label", { htmlFor: id }, app.t(label)), control];
    const category = el(
      "select",
      { id: "template-category", name: "category_id", required: true, disabled: Boolean(editing) },
      el("option", { value: "" }, app.t("chooseCategory")),
      ...app.queue.categories().map((c) => el("option", { value: c.category_id, selected: c.category_id === value.category_id }, c.name)),
    );
    const title = el("input", { id: "template-title", name: "title", required: true, maxLength: 200, value: value.title });
    const texts = LANGUAGES.map((language) =>
      field(`template-text-${language}`, `templateText.${language}`, el("textarea", { id: `template-text-${language}`, name: language, rows: 3, maxLength: 4096, lang: language, value: value.texts[language] ?? "" })),
    );
    const appliesOn = el(
      "select",
      { id: "template-applies", name: "applies_on" },
      ...[["", "appliesNever"], ["accepted", "appliesAccepted"], ["resolved", "appliesResolved"]].map(([v, key]) => el("option", { value: v, selected: (value.applies_on ?? "") === v }, app.t(key))),
    );
    const message = el("p", { id: "template-message", role: "status" });
    const form = el(
      "form",
      { id: "template-form", class: "stack", "aria-labelledby": "template-form-title" },
      el("h2", { id: "template-form-title", tabIndex: -1 }, app.t(editing ? "editTemplate" : "newTemplate")),
      ...field("template-category", "categoryLabel", category),
      ...field("template-title", "templateTitle", title),
      ...texts.flat(),
      ...field("template-applies", "appliesOn", appliesOn),
      el("p", { class: "actions" }, el("button", { type: "submit", class: "primary" }, app.t("save")), editing ? el("button", { type: "button", id: "template-cancel" }, app.t("cancel")) : null),
      message,
    );
    form.querySelector("#template-cancel")?.addEventListener("click", () => {
      editing = null;
      render();
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const data = new FormData(form);
      const body = {
        title: String(data.get("title")).trim(),
        texts: Object.fromEntries(LANGUAGES.map((l) => [l, String(data.get(l)).trim()]).filter(([, v]) => v)),
        applies_on: data.get("applies_on") || null,
      };
      try {
        if (editing) {
          await app.api.citizen(`/admin/reply-templates/${encodeURIComponent(editing.template_id)}`, { method: "PATCH", body });
        } else {
          await app.api.citizen("/admin/reply-templates", { method: "POST", body: { category_id: data.get("category_id"), ...body } });
        }
        editing = null;
        await load({ fresh: true });
        render();
        app.flash(app.t("templateSaved"));
        root.querySelector("h1")?.focus();
      } catch (error) {
        message.textContent = error.userinfo || app.t("failed");
      }
    });
    return form;
  }

  function list() {
    if (!all.length) return el("p", { id: "templates-empty" }, app.t("noTemplates"));
    const byCategory = new Map();
    for (const template of all) {
      if (!byCategory.has(template.category_id)) byCategory.set(template.category_id, []);
      byCategory.get(template.category_id).push(template);
    }
    return el(
      "div",
      { id: "templates-list" },
      ...[...byCategory].map(([categoryId, templates]) =>
        el(
          "section",
          { "aria-labelledby": `templates-${categoryId}` },
          el("h2", { id: `templates-${categoryId}` }, categoryName(categoryId)),
          el(
            "ul",
            { class: "templates" },
            ...templates.map((template) => {
              const edit = el("button", { type: "button", class: "edit-template" }, app.t("edit"));
              edit.addEventListener("click", () => {
                editing = template;
                render();
                root.querySelector("#template-form-title").focus();
              });
              const remove = el("button", { type: "button", class: "danger delete-template" }, app.t("delete"));
              remove.addEventListener("click", async () => {
                if (remove.dataset.confirm !== "yes") {
                  remove.dataset.confirm = "yes";
                  remove.textContent = app.t("deleteConfirm");
                  return;
                }
                try {
                  await app.api.citizen(`/admin/reply-templates/${encodeURIComponent(template.template_id)}`, { method: "DELETE" });
                } catch (error) {
                  app.flash(error.userinfo || app.t("failed"));
                }
                await load({ fresh: true });
                render();
                root.querySelector("h1")?.focus();
              });
              return el(
                "li",
                { "data-template": template.template_id },
                el("strong", {}, template.title),
                template.applies_on ? ` · ${app.t(template.applies_on === "accepted" ? "appliesAccepted" : "appliesResolved")}` : "",
                el("p", {}, text(template)),
                el("p", { class: "actions" }, edit, remove),
              );
            }),
          ),
        ),
      ),
    );
  }

  function render() {
    root.replaceChildren(
      el("p", {}, app.routeLink(app.queue.lastPath(), app.t("backToQueue"))),
      el("h1", { id: "templates-title", tabIndex: -1 }, app.t("replyTemplates")),
      el("p", {}, app.t("templatesHelp")),
      list(),
      editor(),
    );
  }

  async function show() {
    document.title = `${app.t("replyTemplates")} – ${app.t("appName")}`;
    const title = el("h1", { id: "templates-title", tabIndex: -1 }, app.t("replyTemplates"));
    if (!app.auth.signedIn() || !app.auth.officer()) {
      root.replaceChildren(title, el("p", {}, app.t(app.auth.signedIn() ? "officersOnly" : "signInFirst")));
      title.focus();
      return;
    }
    root.replaceChildren(title, el("p", { role: "status" }, app.t("loading")));
    title.focus();
    try {
      await app.queue.ensureCategories();
      await load({ fresh: true });
      render();
      root.querySelector("h1").focus();
    } catch (error) {
      root.replaceChildren(title, el("p", { role: "alert" }, error.userinfo || app.t("loadFailed")));
    }
  }

  app.auth.onChange(() => {
    all = null;
    editing = null;
  });

  return { load, find, text, forCategory, forStatus, options, show, rerender: () => !root.hidden && all && render() };
}
