// The list beside the map (docs/web-app.md, "The map"): `GET /reports` with the filters
// (category, status, q), the same reports as the markers; selecting in the list highlights the
// marker and a marker's click selects its row. Keyboards and screen readers use the list.

const LIMIT = 100;

/// `app`: {api, t, map, navigate, statusText}.
export function createList(app) {
  const list = document.getElementById("report-list");
  const status = document.getElementById("status");
  const form = document.getElementById("filters");
  const categorySelect = document.getElementById("filter-category");
  let reports = [];
  let selected = null;
  const categories = new Map(); // id -> name (names from /me/reports-categories when signed in)

  function filters() {
    const data = new FormData(form);
    return {
      q: data.get("q")?.trim() || undefined,
      status: data.get("status") || undefined,
      category: data.get("category") || undefined,
    };
  }

  function say(key) {
    if (key) {
      status.dataset.i18n = key;
      status.textContent = app.t(key);
    } else {
      delete status.dataset.i18n;
      status.textContent = app.t("reportCount", { count: reports.length });
    }
  }

  function select(id, { focus = false } = {}) {
    selected = id;
    for (const item of list.children) {
      const on = item.dataset.report === id;
      item.classList.toggle("selected", on);
      const button = item.querySelector("button.select");
      button?.setAttribute("aria-pressed", String(on));
      if (on) {
        item.scrollIntoView({ block: "nearest" });
        if (focus) button?.focus();
      }
    }
    app.map.highlight(id);
  }

  function categoryName(id) {
    return categories.get(id) ?? "";
  }

  function render() {
    list.replaceChildren();
    for (const report of reports) {
      const item = document.createElement("li");
      item.dataset.report = report.id;
      const link = document.createElement("a");
      link.href = `/reports/${encodeURIComponent(report.id)}`;
      link.dataset.route = "";
      link.className = "title";
      link.textContent = report.title;
      const state = document.createElement("span");
      state.className = `status status-${report.status ?? "open"}`;
      state.textContent = app.statusText(report);
      const show = document.createElement("button");
      show.type = "button";
      show.className = "select link-button";
      show.setAttribute("aria-pressed", String(report.id === selected));
      show.textContent = app.t("showOnMap");
      show.disabled = !report.location;
      show.addEventListener("click", () => select(report.id));
      item.append(link, " ", state, " ", show);
      const name = categoryName(report.category_id);
      if (name) {
        const category = document.createElement("span");
        category.className = "category";
        category.textContent = name;
        item.append(" ", category);
      }
      item.classList.toggle("selected", report.id === selected);
      list.append(item);
    }
    app.map.showReports(reports, app.statusText);
    if (selected) app.map.highlight(selected);
    say(reports.length ? null : "noReports");
  }

  function renderCategories() {
    const current = categorySelect.value;
    for (const option of [...categorySelect.options].slice(1)) option.remove();
    for (const [id, name] of categories) {
      const option = document.createElement("option");
      option.value = id;
      option.textContent = name || id;
      categorySelect.append(option);
    }
    categorySelect.value = categories.has(current) ? current : "";
    // Without names (anonymous) there is nothing to offer.
    categorySelect.hidden = categories.size === 0;
    categorySelect.previousElementSibling.hidden = categories.size === 0;
  }

  /// `fresh`: after the citizen's own change (a filing), past the browser's cache.
  async function load({ fresh = false } = {}) {
    say("loading");
    try {
      const page = await app.api.citizen(`/reports${app.api.query({ limit: LIMIT, ...filters() })}`, { fresh });
      reports = page?.reports ?? [];
      render();
    } catch (error) {
      console.error(error);
      say("loadFailed");
    }
  }

  /// Category names: a signed-in citizen's categories (the only list of names the API has).
  async function loadCategories() {
    categories.clear();
    if (app.auth.signedIn()) {
      try {
        const body = await app.api.citizen("/me/reports-categories");
        for (const category of body?.categories ?? []) {
          categories.set(category.category_id, category.name);
        }
      } catch (error) {
        console.error(error);
      }
    }
    renderCategories();
    render();
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    load();
  });
  form.addEventListener("change", () => load());
  categorySelect.previousElementSibling.hidden = true;
  categorySelect.hidden = true;

  return {
    load,
    loadCategories,
    select: (id) => select(id, { focus: true }),
    render,
    reports: () => reports,
  };
}
