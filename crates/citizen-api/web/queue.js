// The officers' queue at /queue (docs/web-app.md, "The officers' console"; GET /admin/reports and
// GET /admin/reports/status-counts): the admin list under the page's filters, a tab per status
// with its count, the map of the same page of reports beside it, selection for the bulk actions
// (bulk.js), keyboard shortcuts, and live updates: while the page is shown the list is asked
// again every second (a conditional request: the API answers 304 while nothing changed), so
// another officer's action shows within 2 s. The filters are the page's query, so a view can
// be bookmarked and shared.

const PAGE = 50;
const POLL_MS = 1000;
const STATUSES = ["open", "accepted", "resolved", "duplicate"];
const FILTERS = ["category", "status", "overdue", "q", "location", "from", "to", "orderBy", "dir", "offset"];

/// `app`: {api, t, auth, el, present, navigate, formatDate, statusText, createMap, bulk}.
export function createQueue(app) {
  const { el } = app;
  const root = document.getElementById("queue-page");
  let categories = null; // [{category_id, name}] the officer works, read once per sign-in
  let current = null; // {asked, page, counts, text}
  // report id → the report's row as it was when selected: a bulk action acts on the issues the
  // officer saw, so another officer's change in between is a conflict it names.
  let selected = new Map();
  let timer = null;
  let map = null;
  let busy = false; // a bulk action is running: no refresh under it

  /// The page's query: the filters asked for.
  function asked() {
    const query = new URLSearchParams(window.location.search);
    const value = Object.fromEntries(FILTERS.map((key) => [key, query.get(key) ?? ""]));
    value.offset = Math.max(0, Number.parseInt(value.offset, 10) || 0);
    return value;
  }

  /// The path of the queue with `changes` applied to `base`'s filters (empty ones left out).
  function pathOf(base, changes = {}) {
    const all = { ...base, ...changes };
    const query = new URLSearchParams();
    for (const key of FILTERS) {
      const value = all[key];
      if (value !== "" && value !== undefined && value !== null && !(key === "offset" && !value)) query.set(key, value);
    }
    const text = query.toString();
    return text ? `/queue?${text}` : "/queue";
  }

  /// The API's parameters of the filters (the dates whole days, the end day included).
  function apiParams(filters) {
    return {
      category: filters.category || undefined,
      overdue: filters.overdue || undefined,
      q: filters.q || undefined,
      location: filters.location || undefined,
      dateFrom: filters.from ? `${filters.from}T00:00:00Z` : undefined,
      dateTo: filters.to ? `${filters.to}T23:59:59Z` : undefined,
      orderBy: filters.orderBy || undefined,
      orderDirection: filters.dir || undefined,
    };
  }

  async function load(filters) {
    const params = apiParams(filters);
    const [page, counts] = await Promise.all([
      app.api.citizen(`/admin/reports${app.api.query({ ...params, status: filters.status || undefined, limit: PAGE, offset: filters.offset })}`, { fresh: true }),
      app.api.citizen(`/admin/reports/status-counts${app.api.query(params)}`, { fresh: true }),
    ]);
    return { page, counts };
  }

  function tabs(filters, counts) {
    const tab = (status, count) => {
      const active = (filters.status || "") === status;
      const label = status ? app.t(`status.${status}`) : app.t("allStatuses");
      return el(
        "li",
        {},
        el(
          "a",
          { href: pathOf(filters, { status, offset: 0 }), "data-route": "", "data-status": status || "all", "aria-current": active ? "page" : null },
          `${label} `,
          el("span", { class: "count" }, String(count ?? 0)),
        ),
      );
    };
    return el(
      "nav",
      { class: "status-tabs", "aria-label": app.t("queueStatuses") },
      el("ul", {}, tab("", counts.total), ...STATUSES.map((status) => tab(status, counts.counts?.[status]))),
    );
  }

  function form(filters) {
    const input = (id, name, props = {}) => [
      el("label", { htmlFor: id }, app.t(props.label ?? name)),
      el("input", { id, name, value: filters[name] ?? "", ...props.input }),
    ];
    const select = (id, name, label, options) => [
      el("label", { htmlFor: id }, app.t(label)),
      el("select", { id, name }, ...options.map(([value, text]) => el("option", { value, selected: (filters[name] ?? "") === value }, text))),
    ];
    const element = el(
      "form",
      { id: "queue-filters", class: "filters queue-filters", role: "search" },
      ...input("queue-q", "q", { label: "search", input: { type: "search", "aria-keyshortcuts": "/" } }),
      ...select("queue-category", "category", "categoryLabel", [["", app.t("anyCategory")], ...(categories ?? []).map((c) => [c.category_id, c.name])]),
      ...select("queue-overdue", "overdue", "overdueLabel", [["", app.t("overdueAny")], ["true", app.t("overdueYes")], ["false", app.t("overdueNo")]]),
      ...input("queue-from", "from", { label: "periodFrom", input: { type: "date" } }),
      ...input("queue-to", "to", { label: "periodTo", input: { type: "date" } }),
      ...input("queue-location", "location", { label: "locationFilter", input: { "aria-describedby": "queue-location-help", placeholder: "14.42,50.08,500" } }),
      el("p", { id: "queue-location-help", class: "help" }, app.t("locationFilterHelp")),
      ...select("queue-order", "orderBy", "orderLabel", [["", app.t("orderDate")], ["votes", app.t("orderVotes")], ["location", app.t("orderLocation")]]),
      ...select("queue-dir", "dir", "directionLabel", [["", app.t("directionDefault")], ["desc", app.t("directionDesc")], ["asc", app.t("directionAsc")]]),
      el("button", { type: "submit" }, app.t("filter")),
    );
    element.addEventListener("submit", (event) => {
      event.preventDefault();
      const data = Object.fromEntries(new FormData(element));
      app.navigate(pathOf({ ...filters, ...data, offset: 0 }));
    });
    return element;
  }

  function issueCell(report) {
    return el(
      "ul",
      { class: "issue-states" },
      ...report.issues.map((issue) =>
        el(
          "li",
          { "data-issue": issue.issue_id },
          `${issue.category_name}: `,
          el("span", { class: `status status-${issue.status}` }, app.t(`status.${issue.status}`)),
          issue.has_possible_duplicates ? el("span", { class: "flag" }, ` · ${app.t("possibleDuplicates")}`) : null,
        ),
      ),
    );
  }

  /// The box that selects (or clears) every report of the page.
  function selectAll(page) {
    const box = el("input", {
      type: "checkbox",
      id: "queue-select-all",
      checked: page.reports.length > 0 && page.reports.every((r) => selected.has(r.id)),
      "aria-label": app.t("selectAll"),
    });
    box.addEventListener("change", () => {
      for (const pick of root.querySelectorAll("#queue-table tbody .pick")) {
        if (pick.checked !== box.checked) pick.click();
      }
    });
    return box;
  }

  function rows(page) {
    if (!page.reports.length) return el("p", { id: "queue-empty" }, app.t("noReports"));
    return el(
      "div",
      { class: "table-scroll", role: "region", "aria-labelledby": "queue-caption", tabIndex: 0 },
      el(
        "table",
        { id: "queue-table", class: "queue" },
        el("caption", { id: "queue-caption" }, app.t("queueCaption")),
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", { scope: "col", class: "narrow" }, selectAll(page)),
            ...["reportTitle", "statusLabel", "issuesLabel", "votes", "filedAt"].map((key) => el("th", { scope: "col" }, app.t(key))),
          ),
        ),
        el(
          "tbody",
          {},
          ...page.reports.map((report) => {
            const box = el("input", {
              type: "checkbox",
              class: "pick",
              checked: selected.has(report.id),
              "aria-label": app.t("selectReport", { title: report.title }),
            });
            box.addEventListener("change", () => {
              if (box.checked) selected.set(report.id, report);
              else selected.delete(report.id);
              app.bulk.render(selection());
            });
            return el(
              "tr",
              { "data-report": report.id, class: selected.has(report.id) ? "picked" : null },
              el("td", {}, box),
              el("th", { scope: "row" }, app.routeLink(`/queue/reports/${encodeURIComponent(report.id)}`, report.title, { class: "open-report" })),
              el("td", {}, el("span", { class: `status status-${report.status ?? "open"}` }, app.statusText(report))),
              el("td", {}, issueCell(report)),
              el("td", { class: "number" }, String(report.votes_count ?? 0)),
              el("td", {}, el("time", { dateTime: report.inserted_at }, app.formatDate(report.inserted_at))),
            );
          }),
        ),
      ),
    );
  }

  function pager(filters, page) {
    const links = [];
    if (filters.offset > 0) {
      links.push(app.routeLink(pathOf(filters, { offset: Math.max(0, filters.offset - PAGE) }), app.t("previousPage"), { id: "queue-previous" }));
    }
    if (page.hasNextOffset && filters.offset + PAGE <= 1000) {
      links.push(app.routeLink(pathOf(filters, { offset: filters.offset + PAGE }), app.t("nextPage"), { id: "queue-next" }));
    }
    return links.length ? el("p", { class: "pager" }, ...links.flatMap((link, i) => (i ? [" · ", link] : [link]))) : null;
  }

  const shortcutsHelp = () =>
    el(
      "details",
      { class: "shortcuts" },
      el("summary", {}, app.t("shortcuts")),
      el(
        "dl",
        {},
        ...[
          ["j / k", "shortcutNext"],
          ["x", "shortcutSelect"],
          ["Enter", "shortcutOpen"],
          ["/", "shortcutSearch"],
          ["b", "shortcutBulk"],
        ].flatMap(([keys, text]) => [el("dt", {}, el("kbd", {}, keys)), el("dd", {}, app.t(text))]),
      ),
    );

  /// The reports selected, with their latest rows.
  function selection() {
    return [...selected.values()];
  }

  /// The page around the list, drawn when the filters change: the heading, the shortcuts, the
  /// filters, the bulk panel and the map. A refresh redraws only what is inside `#queue-live`
  /// and the tabs, so a filter being typed or a statement being written stays as it is.
  function drawPage(filters) {
    const title = el("h1", { id: "queue-title", tabIndex: -1 }, app.t("queue"));
    root.replaceChildren(
      title,
      el("p", {}, app.routeLink("/queue/templates", app.t("templatesLink"), { id: "templates-link" })),
      shortcutsHelp(),
      form(filters),
      el("div", { id: "queue-tabs" }),
      el(
        "div",
        { class: "queue-layout" },
        el("div", { class: "queue-list" }, app.bulk.panel(), el("div", { id: "queue-live" })),
        el(
          "div",
          { class: "queue-map-panel" },
          el("h2", { id: "queue-map-title", class: "visually-hidden" }, app.t("queueMap")),
          mapElement(),
          el("p", {}, el("button", { type: "button", id: "queue-pick" }, app.t("pickLocationOnMap"))),
        ),
      ),
    );
    root.querySelector("#queue-pick").addEventListener("click", pickLocation);
    return title;
  }

  /// The tabs, the rows and the map's markers of `data`; the focus stays on the row it was on.
  function drawList(filters, data) {
    const focused = document.activeElement;
    const focusReport = focused?.closest?.("#queue-live tr[data-report]")?.dataset.report;
    const focusClass = focused?.classList?.contains("pick") ? "pick" : "open-report";
    root.querySelector("#queue-tabs").replaceChildren(tabs(filters, data.counts));
    root.querySelector("#queue-live").replaceChildren(
      ...app.present([
        el("p", { id: "queue-updated", class: "muted" }, app.t("updatedAt", { time: new Date().toLocaleTimeString(app.i18n.language) })),
        rows(data.page),
        pager(filters, data.page),
      ]),
    );
    app.bulk.render(selection());
    showOnMap(data.page.reports);
    if (focusReport) root.querySelector(`tr[data-report="${CSS.escape(focusReport)}"] .${focusClass}`)?.focus();
  }

  // One map for the page's life, moved into each drawing (Leaflet keeps its state).
  let mapBox = null;
  function mapElement() {
    if (!mapBox) {
      mapBox = el("div", { id: "queue-map", class: "map queue-map", role: "region", tabIndex: 0, "aria-labelledby": "queue-map-title" });
    }
    return mapBox;
  }

  function showOnMap(reports) {
    if (!map) {
      map = app.createMap(mapBox, (id) => root.querySelector(`tr[data-report="${CSS.escape(id)}"] .open-report`)?.focus());
      map.drawBoundary().catch((error) => console.error(error));
    }
    map.invalidate();
    map.showReports(reports, app.statusText);
  }

  /// The location filter picked on the map (arrows and Enter, or a click): 500 m around it.
  function pickLocation() {
    const input = root.querySelector("#queue-location");
    mapBox.focus();
    map.pick({
      onMove: () => {},
      onDrop: (at) => {
        map.pick(null);
        input.value = `${at.lng.toFixed(5)},${at.lat.toFixed(5)},500`;
        input.focus();
      },
    });
  }

  let asking = false; // one refresh at a time, however slow the answer
  async function refresh() {
    if (busy || asking || root.hidden || !current) return;
    const filters = current.asked;
    asking = true;
    try {
      const data = await load(filters);
      const text = JSON.stringify(data);
      if (root.hidden || current?.asked !== filters || text === current.text) return;
      current = { asked: filters, ...data, text };
      drawList(filters, data);
    } catch (error) {
      console.error(error);
    } finally {
      asking = false;
    }
  }

  function poll() {
    clearInterval(timer);
    timer = setInterval(() => {
      if (root.hidden) {
        clearInterval(timer);
        timer = null;
      } else if (!document.hidden) {
        refresh();
      }
    }, POLL_MS);
  }

  async function show() {
    document.title = `${app.t("queue")} – ${app.t("appName")}`;
    const title = el("h1", { id: "queue-title", tabIndex: -1 }, app.t("queue"));
    if (!app.auth.signedIn() || !app.auth.officer()) {
      current = null;
      clearInterval(timer);
      timer = null;
      root.replaceChildren(title, el("p", {}, app.t(app.auth.signedIn() ? "officersOnly" : "signInFirst")));
      title.focus();
      return;
    }
    const filters = asked();
    root.replaceChildren(title, el("p", { role: "status" }, app.t("loading")));
    title.focus();
    try {
      categories ??= (await app.api.citizen("/admin/report-categories")).categories;
      await app.templates.load();
      const data = await load(filters);
      current = { asked: filters, ...data, text: JSON.stringify(data) };
      const heading = drawPage(filters);
      drawList(filters, data);
      heading.focus();
      poll();
    } catch (error) {
      current = null;
      root.replaceChildren(title, form(filters), el("p", { id: "queue-status", role: "alert" }, error.userinfo || app.t("loadFailed")));
      title.focus();
    }
  }

  // The shortcuts of the queue: only while it is shown and the focus is not in a field.
  document.addEventListener("keydown", (event) => {
    if (root.hidden || !current || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest?.("input, textarea, select, [contenteditable], .leaflet-container")) return;
    const links = [...root.querySelectorAll("#queue-table .open-report")];
    const at = links.indexOf(event.target.closest?.("tr")?.querySelector(".open-report"));
    if (event.key === "j" || event.key === "k") {
      event.preventDefault();
      const next = event.key === "j" ? Math.min(links.length - 1, at + 1) : Math.max(0, at - 1);
      links[next]?.focus();
    } else if (event.key === "x" && at >= 0) {
      event.preventDefault();
      links[at].closest("tr").querySelector(".pick").click();
    } else if (event.key === "/") {
      event.preventDefault();
      root.querySelector("#queue-q")?.focus();
    } else if (event.key === "b") {
      event.preventDefault();
      app.bulk.focus();
    }
  });

  app.auth.onChange(() => {
    categories = null;
    selected = new Map();
    current = null;
  });

  return {
    show,
    refresh,
    rerender: () => !root.hidden && show(),
    /// While a bulk action runs the list is not redrawn under it; `false` redraws it at once.
    setBusy(value) {
      busy = value;
      if (!value) refresh();
    },
    clearSelection() {
      selected = new Map();
    },
    categories: () => categories ?? [],
    /// Every report category (to move to), read once per sign-in.
    async ensureCategories() {
      categories ??= (await app.api.citizen("/admin/report-categories")).categories;
      return categories;
    },
    /// The queue's last address, for the way back from a report.
    lastPath: () => (current ? pathOf(current.asked) : "/queue"),
  };
}
