// The city's news at /news and /news/<id> (docs/web-app.md, "News and projects"): newest first,
// or nearest first from the citizen's position (asked for only when they choose it); filtered
// by a category of the tree (a category includes its descendants); signed in, the categories
// they follow (their subscriptions tell them of new items).

const PAGE = 20;

/// `app`: {api, t, auth, el, routeLink, imageAllowed, formatDate, config}.
export function createNews(app) {
  const { el } = app;
  const listRoot = document.getElementById("news-page");
  const itemRoot = document.getElementById("news-item-page");
  let tree = [];
  let items = [];
  let cursor = null;
  let near = null; // {lon, lat} when nearest first
  let category = "";
  let following = null; // Set of category ids, signed in

  /// The tree as [{category, depth}] in order, for the select and the subscriptions.
  function flat() {
    const out = [];
    const walk = (nodes, depth) => {
      for (const node of nodes) {
        out.push({ category: node, depth });
        walk(node.children ?? [], depth + 1);
      }
    };
    walk(tree, 0);
    return out;
  }

  function distance(item) {
    if (item.distance === null || item.distance === undefined) return null;
    const km = item.distance / 1000;
    return app.t("distance", { km: km < 10 ? km.toFixed(1) : Math.round(km) });
  }

  function newsItem(item) {
    const names = (item.categories ?? []).map((c) => c.name).join(", ");
    return el(
      "li",
      { "data-news": item.id },
      app.routeLink(`/news/${encodeURIComponent(item.id)}`, item.title),
      el(
        "p",
        { class: "meta" },
        el("time", { dateTime: item.date }, app.formatDate(item.date)),
        names ? ` · ${names}` : null,
        distance(item) ? ` · ${distance(item)}` : null,
      ),
    );
  }

  function say(text) {
    listRoot.querySelector("#news-status").textContent = text;
  }

  function renderItems() {
    listRoot.querySelector("#news-list").replaceChildren(...items.map(newsItem));
    say(items.length ? app.t("newsCount", { count: items.length }) : app.t("noNews"));
    listRoot.querySelector("#news-more").hidden = !cursor;
  }

  async function load({ append = false } = {}) {
    const query = app.api.query({
      limit: PAGE,
      category: category || undefined,
      location: near ? `${near.lon},${near.lat}` : undefined,
      pagecursor: append ? cursor ?? undefined : undefined,
    });
    try {
      const page = await app.api.citizen(`/news${query}`, { signedIn: false });
      items = append ? items.concat(page?.news ?? []) : page?.news ?? [];
      cursor = page?.nextCursor?.length ? page.nextCursor : null;
      renderItems();
    } catch (error) {
      say(error.userinfo || app.t("pageFailed"));
    }
  }

  function position() {
    return new Promise((resolve, reject) => {
      if (!navigator.geolocation) return reject(new Error("no geolocation"));
      navigator.geolocation.getCurrentPosition(
        (p) => resolve({ lon: p.coords.longitude, lat: p.coords.latitude }),
        reject,
        { timeout: 10000, maximumAge: 600000 },
      );
    });
  }

  function filters() {
    const select = el(
      "select",
      { id: "news-category" },
      el("option", { value: "" }, app.t("anyCategory")),
      flat().map(({ category: c, depth }) =>
        el("option", { value: c.category_id, selected: c.category_id === category }, `${"– ".repeat(depth)}${c.name}`),
      ),
    );
    const order = el(
      "select",
      { id: "news-order" },
      el("option", { value: "date", selected: !near }, app.t("newestFirst")),
      el("option", { value: "near", selected: Boolean(near) }, app.t("nearestFirst")),
    );
    const message = el("p", { id: "news-where", role: "status" });
    const form = el(
      "form",
      { id: "news-filters", class: "filters", role: "search" },
      el("label", { htmlFor: "news-category" }, app.t("categoryLabel")),
      select,
      el("label", { htmlFor: "news-order" }, app.t("order")),
      order,
      el("button", { type: "submit" }, app.t("filter")),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      category = select.value;
      message.textContent = "";
      if (order.value === "near") {
        try {
          near = await position();
        } catch {
          near = null;
          order.value = "date";
          message.textContent = app.t("noPosition");
        }
      } else {
        near = null;
      }
      await load();
    });
    return [form, message];
  }

  function subscriptions() {
    if (!app.auth.signedIn() || !following) return null;
    const message = el("p", { id: "follow-status", role: "status" });
    const boxes = flat().map(({ category: c, depth }) => {
      const id = `follow-${c.category_id}`;
      return el(
        "li",
        { class: `check depth-${Math.min(depth, 3)}` },
        el("input", { type: "checkbox", id, value: c.category_id, checked: following.has(c.category_id) }),
        el("label", { htmlFor: id }, c.name),
      );
    });
    const form = el(
      "form",
      { id: "follow-form" },
      el("fieldset", {}, el("legend", {}, app.t("followLegend")), el("ul", { class: "choices" }, boxes)),
      el("button", { type: "submit" }, app.t("save")),
      message,
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const changes = [...form.querySelectorAll("input[type=checkbox]")]
        .filter((box) => box.checked !== following.has(box.value))
        .map((box) => ({ category_id: box.value, subscribed: box.checked }));
      if (!changes.length) {
        message.textContent = app.t("saved");
        return;
      }
      try {
        await app.api.citizen("/me/news-categories", { method: "PATCH", body: changes });
        for (const change of changes) {
          if (change.subscribed) following.add(change.category_id);
          else following.delete(change.category_id);
        }
        message.textContent = app.t("saved");
      } catch (error) {
        message.textContent = error.userinfo || app.t("failed");
      }
    });
    return el("section", { class: "follow", "aria-labelledby": "follow-title" }, el("h2", { id: "follow-title" }, app.t("follow")), form);
  }

  function renderList() {
    const more = el("button", { type: "button", id: "news-more", hidden: true }, app.t("more"));
    more.addEventListener("click", () => load({ append: true }));
    listRoot.replaceChildren(
      ...app.present([
        el("h1", { id: "news-title", tabIndex: -1 }, app.t("news")),
        filters(),
        el("p", { id: "news-status", role: "status" }, app.t("loading")),
        el("ol", { id: "news-list", class: "reports" }),
        more,
        subscriptions(), // null when signed out
      ]),
    );
  }

  async function loadTree() {
    const [categories, mine] = await Promise.all([
      app.api.citizen("/news-categories?view=tree", { signedIn: false }).catch(() => null),
      app.auth.signedIn() ? app.api.citizen("/me/news-categories", { fresh: true }).catch(() => null) : null,
    ]);
    tree = categories?.news_categories ?? [];
    following = mine ? new Set(mine.subscriptions ?? []) : null;
  }

  async function showList({ keepFocus = false } = {}) {
    document.title = `${app.t("news")} – ${app.t("appName")}`;
    await loadTree();
    renderList();
    if (!keepFocus) listRoot.querySelector("h1").focus();
    await load();
  }

  function showItem(id) {
    return app.showDetail(itemRoot, {
      load: () => app.api.citizen(`/news/${encodeURIComponent(id)}`, { signedIn: false }),
      titleId: "news-item-title",
      missing: "newsMissing",
      back: { path: "/news", key: "backToNews" },
      render: (item) => [
        el(
          "p",
          { class: "meta" },
          el("time", { dateTime: item.date }, app.formatDate(item.date)),
          (item.categories ?? []).length ? ` · ${item.categories.map((c) => c.name).join(", ")}` : null,
        ),
        item.image && app.imageAllowed(item.image, app.config.mediaOrigin)
          ? el("img", { src: item.image, alt: "", class: "news-image" })
          : null,
        el("p", { class: "description" }, item.description),
      ],
    });
  }

  return {
    showList,
    showItem,
    rerender: () => {
      if (!listRoot.hidden) showList({ keepFocus: true });
    },
  };
}
