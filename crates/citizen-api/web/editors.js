// The editors' page at /editor (docs/web-app.md, "The officers' console"): news with a picture,
// a place and categories (`cityuser:news:manage`), the news category tree
// (`cityuser:news-categories:manage`) and projects with their pictures
// (`cityuser:projects:manage`); each part is shown to whoever holds its scope. Pictures go up
// through `POST /media` first, then their addresses are saved with the item.

const NEWS = "cityuser:news:manage";
const CATEGORIES = "cityuser:news-categories:manage";
const PROJECTS = "cityuser:projects:manage";

/// `app`: {api, t, el, auth, flash, formatDate, routeLink}.
export function createEditors(app) {
  const { el } = app;
  const root = document.getElementById("editor-page");
  let state = { news: [], categories: [], projects: [], editing: { news: null, category: null, project: null } };

  /// Whether the token may edit anything here (the menu shows the page then).
  const editor = () => app.auth.signedIn() && [NEWS, CATEGORIES, PROJECTS].some((s) => app.auth.has(s));

  async function upload(files) {
    const form = new FormData();
    for (const file of files) form.append("media", file, file.name);
    return (await app.api.citizen("/media", { method: "POST", body: form })).media;
  }

  /// The categories of the tree as a flat list with their depth.
  function flat(tree, depth = 0) {
    return tree.flatMap((c) => [{ ...c, depth }, ...flat(c.children ?? [], depth + 1)]);
  }

  async function load() {
    const [news, categories, projects] = await Promise.all([
      app.auth.has(NEWS) ? app.api.citizen("/news?limit=50", { fresh: true }) : null,
      app.api.citizen("/news-categories?view=tree", { fresh: true }),
      app.auth.has(PROJECTS) ? app.api.citizen("/projects?limit=50", { fresh: true }) : null,
    ]);
    state.news = news?.news ?? [];
    state.categories = flat(categories?.news_categories ?? []);
    state.projects = projects?.projects ?? [];
  }

  /// Runs a save or a delete, then reads everything again and says how it went.
  async function act(run, doneKey, message) {
    try {
      await run();
      for (const key of Object.keys(state.editing)) state.editing[key] = null;
      await load();
      render();
      app.flash(app.t(doneKey));
      root.querySelector("h1").focus();
    } catch (error) {
      message.textContent = error.userinfo || app.t("failed");
    }
  }

  function removeButton(path, label) {
    const button = el("button", { type: "button", class: "danger delete-item", "aria-label": app.t("deleteNamed", { name: label }) }, app.t("delete"));
    button.addEventListener("click", () => {
      if (button.dataset.confirm !== "yes") {
        button.dataset.confirm = "yes";
        button.textContent = app.t("deleteConfirm");
        return;
      }
      act(() => app.api.citizen(path, { method: "DELETE" }), "deleted", root.querySelector("#editor-message"));
    });
    return button;
  }

  /// `item`, or for a project its detail (the list leaves the pictures out, and a save sends
  /// them all).
  function editButton(kind, item, label) {
    const button = el("button", { type: "button", class: "edit-item", "aria-label": app.t("editNamed", { name: label }) }, app.t("edit"));
    button.addEventListener("click", async () => {
      try {
        state.editing[kind] =
          kind === "project" ? await app.api.citizen(`/projects/${encodeURIComponent(item.project_id)}`, { fresh: true }) : item;
      } catch (error) {
        root.querySelector("#editor-message").textContent = error.userinfo || app.t("failed");
        return;
      }
      render();
      root.querySelector(`#${kind}-form h3`).focus();
    });
    return button;
  }

  const field = (id, key, control) => [el("label", { htmlFor: id }, app.t(key)), control];

  function newsForm() {
    const item = state.editing.news;
    const [lon, lat] = item?.location?.coordinates ?? [];
    const chosen = new Set((item?.categories ?? []).map((c) => c.id));
    const message = el("p", { class: "error", role: "alert" });
    const form = el(
      "form",
      { id: "news-form", class: "stack" },
      el("h3", { tabIndex: -1 }, app.t(item ? "editNews" : "newNews")),
      ...field("news-title-input", "itemTitle", el("input", { id: "news-title-input", required: true, maxLength: 256, value: item?.title ?? "" })),
      ...field("news-text", "itemText", el("textarea", { id: "news-text", rows: 5, maxLength: 20000, value: item?.description ?? "" })),
      ...field("news-image", "newsImage", el("input", { id: "news-image", type: "file", accept: "image/jpeg,image/png,image/webp,image/heic" })),
      item?.image ? el("p", { class: "help" }, app.t("keepsImage")) : null,
      ...field("news-location", "newsLocation", el("input", { id: "news-location", placeholder: "14.42,50.08", value: Number.isFinite(lon) ? `${lon},${lat}` : "" })),
      el(
        "fieldset",
        {},
        el("legend", {}, app.t("newsCategories")),
        ...state.categories.map((c) =>
          el("label", { class: `check depth-${Math.min(c.depth, 3)}` }, el("input", { type: "checkbox", name: "category", value: c.category_id, checked: chosen.has(c.category_id) }), c.name),
        ),
      ),
      el("p", { class: "actions" }, el("button", { type: "submit", class: "primary" }, app.t("save")), item ? cancel() : null),
      message,
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const place = form.querySelector("#news-location").value.trim();
      const coordinates = place ? place.split(",").map(Number) : null;
      if (coordinates && (coordinates.length !== 2 || coordinates.some((n) => !Number.isFinite(n)))) {
        message.textContent = app.t("locationInvalid");
        return;
      }
      act(async () => {
        const file = form.querySelector("#news-image").files[0];
        const image = file ? (await upload([file]))[0].public_url : item?.image;
        const body = {
          title: form.querySelector("#news-title-input").value.trim(),
          description: form.querySelector("#news-text").value,
          image: image ?? undefined,
          date: item?.date,
          location: coordinates ? { type: "Point", coordinates } : undefined,
          categories: [...form.querySelectorAll("input[name=category]:checked")].map((box) => box.value),
        };
        if (item) await app.api.citizen(`/news/${encodeURIComponent(item.id)}`, { method: "PUT", body });
        else await app.api.citizen("/news", { method: "POST", body });
      }, "saved", message);
    });
    return form;
  }

  function cancel() {
    const button = el("button", { type: "button" }, app.t("cancel"));
    button.addEventListener("click", () => {
      for (const key of Object.keys(state.editing)) state.editing[key] = null;
      render();
      root.querySelector("h1").focus();
    });
    return button;
  }

  function categoryForm() {
    const item = state.editing.category;
    const message = el("p", { class: "error", role: "alert" });
    const parent = el(
      "select",
      { id: "category-parent" },
      el("option", { value: "" }, app.t("topLevel")),
      ...state.categories
        .filter((c) => c.category_id !== item?.category_id)
        .map((c) => el("option", { value: c.category_id, selected: c.category_id === item?.parent_id }, `${"– ".repeat(c.depth)}${c.name}`)),
    );
    const form = el(
      "form",
      { id: "category-form", class: "stack" },
      el("h3", { tabIndex: -1 }, app.t(item ? "editCategory" : "newCategory")),
      ...field("category-name", "categoryName", el("input", { id: "category-name", required: true, maxLength: 100, value: item?.name ?? "" })),
      ...field("category-description", "categoryDescription", el("textarea", { id: "category-description", rows: 2, maxLength: 1000, value: item?.description ?? "" })),
      ...field("category-parent", "categoryParent", parent),
      el("p", { class: "actions" }, el("button", { type: "submit", class: "primary" }, app.t("save")), item ? cancel() : null),
      message,
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const body = {
        name: form.querySelector("#category-name").value.trim(),
        description: form.querySelector("#category-description").value.trim() || null,
        parent_id: parent.value || null,
      };
      act(
        () =>
          item
            ? app.api.citizen(`/news-categories/${encodeURIComponent(item.category_id)}`, { method: "PUT", body })
            : app.api.citizen("/news-categories", { method: "POST", body }),
        "saved",
        message,
      );
    });
    return form;
  }

  function projectForm() {
    const item = state.editing.project;
    const message = el("p", { class: "error", role: "alert" });
    const form = el(
      "form",
      { id: "project-form", class: "stack" },
      el("h3", { tabIndex: -1 }, app.t(item ? "editProject" : "newProject")),
      ...field("project-title-input", "itemTitle", el("input", { id: "project-title-input", required: true, maxLength: 256, value: item?.title ?? "" })),
      ...field("project-text", "itemText", el("textarea", { id: "project-text", rows: 5, maxLength: 20000, value: item?.description ?? "" })),
      ...field("project-pictures", "projectPictures", el("input", { id: "project-pictures", type: "file", multiple: true, accept: "image/jpeg,image/png,image/webp,image/heic,application/pdf" })),
      item?.media?.length ? el("p", { class: "help" }, app.t("keepsPictures", { count: item.media.length })) : null,
      el("p", { class: "actions" }, el("button", { type: "submit", class: "primary" }, app.t("save")), item ? cancel() : null),
      message,
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      act(async () => {
        const files = [...form.querySelector("#project-pictures").files];
        const added = files.length ? await upload(files) : [];
        const media = [
          ...(item?.media ?? []).map((m) => ({ public_url: m.public_url, original_filename: m.original_filename, media_type: m.media_type })),
          ...added.map((m) => ({ public_url: m.public_url, original_filename: m.filename, media_type: m.media_type })),
        ];
        const body = { title: form.querySelector("#project-title-input").value.trim(), description: form.querySelector("#project-text").value, open_from: item?.open_from, media };
        if (item) await app.api.citizen(`/projects/${encodeURIComponent(item.project_id)}`, { method: "PUT", body });
        else await app.api.citizen("/projects", { method: "POST", body });
      }, "saved", message);
    });
    return form;
  }

  function part(id, titleKey, items, form) {
    return el("section", { id, "aria-labelledby": `${id}-title` }, el("h2", { id: `${id}-title` }, app.t(titleKey)), items, form);
  }

  function render() {
    root.replaceChildren(
      ...app.present([
        el("h1", { id: "editor-title", tabIndex: -1 }, app.t("editors")),
        el("p", { id: "editor-message", role: "status" }),
        app.auth.has(NEWS)
          ? part(
              "editor-news",
              "navNews",
              el("ul", { class: "edit-list" }, ...state.news.map((n) => el("li", { "data-id": n.id }, app.routeLink(`/news/${encodeURIComponent(n.id)}`, n.title), " ", editButton("news", n, n.title), " ", removeButton(`/news/${encodeURIComponent(n.id)}`, n.title)))),
              newsForm(),
            )
          : null,
        app.auth.has(CATEGORIES)
          ? part(
              "editor-categories",
              "newsCategories",
              el("ul", { class: "edit-list" }, ...state.categories.map((c) => el("li", { "data-id": c.category_id, class: `depth-${Math.min(c.depth, 3)}` }, c.name, " ", editButton("category", c, c.name), " ", removeButton(`/news-categories/${encodeURIComponent(c.category_id)}`, c.name)))),
              categoryForm(),
            )
          : null,
        app.auth.has(PROJECTS)
          ? part(
              "editor-projects",
              "navProjects",
              el("ul", { class: "edit-list" }, ...state.projects.map((p) => el("li", { "data-id": p.project_id }, app.routeLink(`/projects/${encodeURIComponent(p.project_id)}`, p.title), " ", editButton("project", p, p.title), " ", removeButton(`/projects/${encodeURIComponent(p.project_id)}`, p.title)))),
              projectForm(),
            )
          : null,
      ]),
    );
  }

  async function show() {
    document.title = `${app.t("editors")} – ${app.t("appName")}`;
    const title = el("h1", { id: "editor-title", tabIndex: -1 }, app.t("editors"));
    if (!editor()) {
      root.replaceChildren(title, el("p", {}, app.t(app.auth.signedIn() ? "editorsOnly" : "signInFirst")));
      title.focus();
      return;
    }
    root.replaceChildren(title, el("p", { role: "status" }, app.t("loading")));
    title.focus();
    try {
      await load();
      render();
      root.querySelector("h1").focus();
    } catch (error) {
      root.replaceChildren(title, el("p", { role: "alert" }, error.userinfo || app.t("loadFailed")));
    }
  }

  app.auth.onChange(() => {
    state = { news: [], categories: [], projects: [], editing: { news: null, category: null, project: null } };
  });

  return { show, editor, rerender: () => !root.hidden && show() };
}
