// The officers' figures at /figures (docs/web-app.md, "Figures"; GET /admin/stats): per category
// of the officer and in total, for a period chosen by dates, a table, a chart of what came in and
// what was resolved (inline SVG; the table is its text), and the same as a CSV download. The
// period and the category are the page's query (`from`, `to`, `category`), so a view can be
// bookmarked and shared.

const SVG = "http://www.w3.org/2000/svg";
const DAY = 86_400_000;

/// An SVG element with attributes and children.
function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  element.append(...children);
  return element;
}

/// `YYYY-MM-DD` of a Date, in UTC.
const day = (date) => date.toISOString().slice(0, 10);

/// `app`: {api, t, auth, el, present, navigate, i18n}.
export function createFigures(app) {
  const { el } = app;
  const root = document.getElementById("figures-page");
  let categories = null; // [{category_id, name}] of the officer, read once per sign-in

  /// The page's query as the period asked for (the end date included) and the category.
  function asked() {
    const query = new URLSearchParams(window.location.search);
    const valid = (value) => (/^\d{4}-\d{2}-\d{2}$/.test(value ?? "") && !Number.isNaN(Date.parse(value)) ? value : null);
    const to = valid(query.get("to")) ?? day(new Date());
    const from = valid(query.get("from")) ?? day(new Date(Date.parse(to) - 29 * DAY));
    return { from, to, category: query.get("category") ?? "" };
  }

  /// The API's parameters of a period whose end date is included.
  function apiQuery({ from, to, category }, format) {
    return app.api.query({
      dateFrom: `${from}T00:00:00Z`,
      dateTo: `${day(new Date(Date.parse(to) + DAY))}T00:00:00Z`,
      category: category || undefined,
      format,
    });
  }

  function duration(seconds) {
    if (seconds === null || seconds === undefined) return "–";
    const hours = seconds / 3600;
    const [value, unit] = hours < 48 ? [hours, "hour"] : [hours / 24, "day"];
    return new Intl.NumberFormat(app.i18n.language, { style: "unit", unit, unitDisplay: "short", maximumFractionDigits: 1 }).format(value);
  }

  function cells(figures) {
    const pair = (d) => `${duration(d.median_seconds)} / ${duration(d.p90_seconds)} (${d.measured})`;
    return [
      figures.received,
      figures.accepted,
      figures.resolved,
      figures.duplicates,
      figures.overdue_now,
      pair(figures.first_statement),
      pair(figures.resolution),
    ].map((value) => el("td", {}, String(value)));
  }

  function table(answer, period) {
    const heads = ["received", "accepted", "resolved", "duplicates", "overdueNow", "toFirstStatement", "toResolution"];
    // A region of its own that scrolls sideways on a narrow screen, reachable by the keyboard.
    return el(
      "div",
      { class: "table-scroll", role: "region", "aria-labelledby": "figures-caption", tabIndex: 0 },
      el(
        "table",
        { id: "figures-table", class: "figures" },
        el("caption", { id: "figures-caption" }, app.t("figuresCaption", { from: period.from, to: period.to })),
        el(
          "thead",
          {},
          el("tr", {}, el("th", { scope: "col" }, app.t("categoryLabel")), ...heads.map((key) => el("th", { scope: "col" }, app.t(key)))),
        ),
        el(
          "tbody",
          {},
          ...answer.categories.map((row) =>
            el("tr", { "data-category": row.category_id }, el("th", { scope: "row" }, row.category_name), ...cells(row.figures)),
          ),
        ),
        el("tfoot", {}, el("tr", { id: "figures-total" }, el("th", { scope: "row" }, app.t("total")), ...cells(answer.total))),
      ),
    );
  }

  /// Received and resolved per category as bars; the table above says the same in words.
  function chart(answer) {
    const rows = answer.categories;
    const most = Math.max(1, ...rows.map((r) => Math.max(r.figures.received, r.figures.resolved)));
    const [label, width, row] = [190, 360, 44];
    const height = rows.length * row + 34;
    const bars = rows.flatMap((r, index) => {
      const y = 30 + index * row;
      const bar = (value, offset, kind) => [
        svg("rect", { x: label, y: y + offset, width: Math.max(1, (value / most) * width), height: 14, class: `bar-${kind}` }),
        svg("text", { x: label + (value / most) * width + 6, y: y + offset + 12, class: "chart-value" }, String(value)),
      ];
      return [
        svg("text", { x: 0, y: y + 17, class: "chart-label" }, r.category_name.length > 26 ? `${r.category_name.slice(0, 25)}…` : r.category_name),
        ...bar(r.figures.received, 0, "received"),
        ...bar(r.figures.resolved, 18, "resolved"),
      ];
    });
    const legend = [
      svg("rect", { x: label, y: 4, width: 14, height: 14, class: "bar-received" }),
      svg("text", { x: label + 20, y: 16, class: "chart-label" }, app.t("received")),
      svg("rect", { x: label + 150, y: 4, width: 14, height: 14, class: "bar-resolved" }),
      svg("text", { x: label + 170, y: 16, class: "chart-label" }, app.t("resolved")),
    ];
    return el(
      "figure",
      // On a narrow screen the chart keeps its size (its labels stay readable) and scrolls
      // sideways in a region the keyboard reaches, as the table does.
      { class: "figures-chart", role: "region", "aria-labelledby": "figures-chart-caption", tabIndex: 0 },
      svg(
        "svg",
        { id: "figures-chart", viewBox: `0 0 ${label + width + 60} ${height}`, role: "img", "aria-labelledby": "figures-chart-title" },
        svg("title", { id: "figures-chart-title" }, app.t("figuresChart")),
        ...legend,
        ...bars,
      ),
      el("figcaption", { id: "figures-chart-caption" }, app.t("figuresChart")),
    );
  }

  function form(period) {
    const input = (id, name, value) => el("input", { type: "date", id, name, value, required: true });
    const select = el(
      "select",
      { id: "figures-category", name: "category" },
      el("option", { value: "" }, app.t("anyCategory")),
      (categories ?? []).map((c) => el("option", { value: c.category_id, selected: c.category_id === period.category }, c.name)),
    );
    const element = el(
      "form",
      { id: "figures-form", class: "filters" },
      el("label", { htmlFor: "figures-from" }, app.t("periodFrom")),
      input("figures-from", "from", period.from),
      el("label", { htmlFor: "figures-to" }, app.t("periodTo")),
      input("figures-to", "to", period.to),
      el("label", { htmlFor: "figures-category" }, app.t("categoryLabel")),
      select,
      el("button", { type: "submit" }, app.t("show")),
    );
    element.addEventListener("submit", (event) => {
      event.preventDefault();
      const data = new FormData(element);
      const query = new URLSearchParams({ from: data.get("from"), to: data.get("to") });
      if (data.get("category")) query.set("category", data.get("category"));
      app.navigate(`/figures?${query}`);
    });
    return element;
  }

  function csvButton(period) {
    const message = el("p", { id: "figures-csv-status", role: "status" });
    const button = el("button", { type: "button", id: "figures-csv" }, app.t("downloadCsv"));
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const name = `stats-${period.from}-${period.to}.csv`;
        await app.api.download(`/admin/stats${apiQuery(period, "csv")}`, name);
        message.textContent = app.t("downloaded", { name });
      } catch (error) {
        message.textContent = error.userinfo || app.t("failed");
      } finally {
        button.disabled = false;
      }
    });
    return el("div", {}, button, message);
  }

  async function show({ keepFocus = false } = {}) {
    document.title = `${app.t("figures")} – ${app.t("appName")}`;
    const title = el("h1", { id: "figures-title", tabIndex: -1 }, app.t("figures"));
    const period = asked();
    if (!app.auth.signedIn() || !app.auth.officer()) {
      root.replaceChildren(title, el("p", {}, app.t(app.auth.signedIn() ? "officersOnly" : "signInFirst")));
      if (!keepFocus) title.focus();
      return;
    }
    root.replaceChildren(title, el("p", { role: "status" }, app.t("loading")));
    if (!keepFocus) title.focus();
    await render(period, title);
    // The heading was taken out and put back with the figures, which drops the focus: it goes
    // to the heading again, unless the officer has moved on meanwhile.
    if (!keepFocus && (document.activeElement === document.body || !document.activeElement)) title.focus();
  }

  async function render(period, title) {
    try {
      categories ??= (await app.api.citizen("/admin/report-categories")).categories;
      const answer = await app.api.citizen(`/admin/stats${apiQuery(period)}`, { fresh: true });
      root.replaceChildren(
        title,
        el("p", {}, app.t("figuresHelp")),
        form(period),
        table(answer, period),
        chart(answer),
        csvButton(period),
      );
    } catch (error) {
      root.replaceChildren(title, form(period), el("p", { id: "figures-status", role: "alert" }, error.userinfo || app.t("loadFailed")));
    }
  }

  app.auth.onChange(() => {
    categories = null;
  });

  return { show, rerender: () => !root.hidden && show({ keepFocus: true }) };
}
