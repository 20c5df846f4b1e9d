// The citizens' web app (docs/web-app.md): plain ES modules, no build step. citizen-api fills
// the page's <meta name="app:*"> from its settings and names each module by its hashed path in a
// <link rel="modulepreload" data-module>; this entry imports them (a hashed file cannot import
// another by a relative name) and hands each what it needs. Leaflet (vendor/leaflet) is a
// classic deferred script, run before this module.

const meta = (name) => document.querySelector(`meta[name="app:${name}"]`)?.content ?? "";
const config = {
  api: meta("api-base"),
  streetsApi: meta("streets-api").replace(/\/$/, ""),
  platformMessages: meta("platform-messages").replace(/\/$/, ""),
  texts: meta("texts"),
  mqttUrl: meta("mqtt-url"),
  mqttLib: meta("mqtt-lib"),
  clientId: meta("client-id"),
  oidcIssuer: meta("oidc-issuer"),
  oidcClientId: meta("oidc-client-id"),
  captchaSiteKey: meta("captcha-site-key"),
  captchaScript: meta("captcha-script"),
  devSignIn: meta("dev-sign-in"),
  publicUrl: meta("public-url").replace(/\/$/, ""),
  mediaOrigin: meta("media-origin"),
};

const modules = Object.fromEntries(
  await Promise.all(
    [...document.querySelectorAll("link[data-module]")].map(async (link) => [
      link.dataset.module,
      await import(link.href),
    ]),
  ),
);

const textsResponse = await fetch(config.texts);
const i18n = modules.i18n.createI18n(await textsResponse.json());
const t = i18n.t;
const auth = modules.auth.createAuth(config);
const api = modules.api.createApi(config, auth, () => i18n.language);
const dateFormat = () => new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });

const app = {
  config,
  i18n,
  t,
  auth,
  api,
  el: modules.dom.el,
  present: modules.dom.present,
  routeLink: modules.dom.routeLink,
  reportItem: modules.dom.reportItem,
  sitePath: modules.dom.sitePath,
  imageAllowed: modules.dom.imageAllowed,
  showDetail: (root, options) => modules.dom.showDetail(app, root, options),
  statusText: (report) => t(`status.${report.status ?? "none"}`),
  formatDate: (value) => (value ? dateFormat().format(new Date(value)) : ""),
  renderMarkdown: modules.markdown.renderMarkdown,
  /// A message at the top of the page that a screen reader reads out (after a change of page).
  flash: (text) => {
    const box = document.getElementById("flash");
    box.textContent = text;
    box.hidden = !text;
  },
};

i18n.apply(document);
document.title = t("appName");
const languageSelect = document.getElementById("language");
languageSelect.value = i18n.language;
languageSelect.addEventListener("change", () => i18n.set(languageSelect.value));

/// Another map (the queue's, a report's suggestions): `onSelect(id)` when a marker is clicked.
app.createMap = (element, onSelect) => modules.map.createMap(app, element, onSelect);
app.map = modules.map.createMap(app, document.getElementById("map"), (id) => app.list.select(id));
app.list = modules.list.createList(app);
app.report = modules.report.createReportPage(app);
app.filing = modules.filing.createFiling(app);
app.announcements = modules.announcements.createAnnouncements(app);
app.notifications = modules.notifications.createNotifications(app);
app.news = modules.news.createNews(app);
app.projects = modules.projects.createProjects(app);
app.account = modules.account.createAccount(app);
app.figures = modules.figures.createFigures(app);
app.templates = modules.templates.createTemplates(app);
app.queue = modules.queue.createQueue(app);
app.bulk = modules.bulk.createBulk(app);
app.casework = modules.casework.createCasework(app);
app.whatHappened = app.casework.whatHappened;
app.postStatement = app.casework.postStatement;
app.editors = modules.editors.createEditors(app);

// The router: each path of the app is one page (a section of <main>), shown alone; links marked
// data-route change the page without a reload. citizen-api answers the page at each of these
// paths too (PAGES in routes/web_app.rs), so every one can be shared and reloaded.
const ROUTES = [
  { pattern: /^\/$/, page: "map-page", nav: "/", show: () => {
    document.title = t("appName");
    app.map.invalidate();
  } },
  { pattern: /^\/reports\/([^/]+)$/, page: "report-page", nav: "/", show: (id) => app.report.show(id) },
  { pattern: /^\/news$/, page: "news-page", nav: "/news", show: () => app.news.showList() },
  { pattern: /^\/news\/([^/]+)$/, page: "news-item-page", nav: "/news", show: (id) => app.news.showItem(id) },
  { pattern: /^\/projects$/, page: "projects-page", nav: "/projects", show: () => app.projects.showList() },
  { pattern: /^\/projects\/([^/]+)$/, page: "project-page", nav: "/projects", show: (id) => app.projects.showItem(id) },
  { pattern: /^\/notifications$/, page: "notifications-page", nav: "/notifications", show: () => app.notifications.show() },
  { pattern: /^\/account$/, page: "account-page", nav: "/account", show: () => app.account.show() },
  { pattern: /^\/figures$/, page: "figures-page", nav: "/figures", show: () => app.figures.show() },
  { pattern: /^\/editor$/, page: "editor-page", nav: "/editor", show: () => app.editors.show() },
  { pattern: /^\/queue$/, page: "queue-page", nav: "/queue", show: () => app.queue.show() },
  { pattern: /^\/queue\/templates$/, page: "templates-page", nav: "/queue", show: () => app.templates.show() },
  { pattern: /^\/queue\/reports\/([^/]+)$/, page: "casework-page", nav: "/queue", show: (id) => app.casework.show(id) },
];
const pages = [...new Set(ROUTES.map((r) => r.page))].map((id) => document.getElementById(id));

function route() {
  const path = window.location.pathname;
  const found = ROUTES.map((r) => [r, r.pattern.exec(path)]).find(([, match]) => match) ?? [ROUTES[0], [path]];
  const [current, match] = found;
  for (const page of pages) page.hidden = page.id !== current.page;
  for (const link of document.querySelectorAll("#main-nav a")) {
    if (link.getAttribute("href") === current.nav) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const shown = current.show(match[1] === undefined ? undefined : decodeURIComponent(match[1]));
  if (shown?.catch) shown.catch((error) => console.error(error));
  app.notifications.refreshUnread();
}

app.navigate = (path) => {
  app.flash("");
  window.history.pushState(null, "", path);
  route();
  window.scrollTo(0, 0);
};

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-route]");
  if (!link || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(link.href, window.location.href);
  if (url.origin !== window.location.origin) return;
  event.preventDefault();
  app.navigate(`${url.pathname}${url.search}`);
});
window.addEventListener("popstate", route);

// Filing.
const fileOpen = document.getElementById("file-open");
fileOpen.addEventListener("click", () => {
  fileOpen.hidden = true;
  app.filing.open(async (report) => {
    app.filing.close();
    await app.list.load({ fresh: true });
    app.list.select(report.id);
    loadMine();
  });
});

// Signing in and my reports.
const who = document.getElementById("who");
const signIn = document.getElementById("sign-in");
const signOut = document.getElementById("sign-out");
const devForm = document.getElementById("dev-sign-in");
const mineOpen = document.getElementById("mine-open");
const mine = document.getElementById("mine");

async function loadMine() {
  const list = document.getElementById("mine-list");
  const status = document.getElementById("mine-status");
  if (!auth.signedIn()) return;
  try {
    const page = await api.citizen("/me/reports?limit=100", { fresh: true });
    const rows = page?.reports ?? [];
    status.textContent = rows.length ? "" : t("noMine");
    list.replaceChildren(
      ...rows.map((report) =>
        app.reportItem(report, " ", app.el("span", { class: `status status-${report.status ?? "open"}` }, app.statusText(report))),
      ),
    );
  } catch (error) {
    status.textContent = error.userinfo || t("loadFailed");
  }
}

function showAccount() {
  const on = auth.signedIn();
  who.textContent = on ? t("signedInAs", { who: auth.who() }) : "";
  signOut.hidden = !on;
  signIn.hidden = on || !(auth.devAvailable() || auth.oidcAvailable());
  mineOpen.hidden = !on;
  for (const item of document.querySelectorAll("#main-nav .signed-in")) item.hidden = !on;
  for (const item of document.querySelectorAll("#main-nav .officer")) item.hidden = !(on && auth.officer());
  for (const item of document.querySelectorAll("#main-nav .editor")) item.hidden = !app.editors.editor();
  if (!on) mine.hidden = true;
}

signIn.addEventListener("click", () => {
  if (auth.oidcAvailable()) {
    auth.oidcSignIn().catch((error) => console.error(error));
  } else {
    devForm.hidden = false;
    document.getElementById("dev-sub").focus();
  }
});
document.getElementById("dev-cancel").addEventListener("click", () => {
  devForm.hidden = true;
  signIn.focus();
});
devForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    await auth.devSignIn(document.getElementById("dev-sub").value.trim());
    devForm.hidden = true;
    signOut.focus();
  } catch (error) {
    console.error(error);
  }
});
signOut.addEventListener("click", () => auth.signOut());
mineOpen.addEventListener("click", () => {
  mine.hidden = !mine.hidden;
  if (!mine.hidden) loadMine();
});

auth.onChange(() => {
  showAccount();
  app.list.loadCategories();
  app.announcements.refresh();
  app.notifications.refreshUnread();
  const reportPage = document.getElementById("report-page");
  if (!reportPage.hidden && app.report.current()) app.report.show(app.report.current(), { keepFocus: true });
  app.notifications.rerender();
  app.account.rerender();
  app.news.rerender();
  app.figures.rerender();
  app.queue.rerender();
  app.templates.rerender();
  app.editors.rerender();
  if (!document.getElementById("casework-page").hidden && app.casework.current()) app.casework.show(app.casework.current(), { keepFocus: true });
});

i18n.onChange(() => {
  document.title = t("appName");
  showAccount();
  app.list.render();
  app.report.rerender();
  app.announcements.rerender();
  app.notifications.rerender();
  app.account.rerender();
  app.news.rerender();
  app.projects.rerender();
  app.figures.rerender();
  app.bulk.rerender();
  app.queue.rerender();
  app.templates.rerender();
  app.casework.rerender();
  app.editors.rerender();
  if (!mine.hidden) loadMine();
});

await auth.completeOidc().catch((error) => console.error(error));
showAccount();
route();
app.announcements.start();
await Promise.all([
  app.map
    .drawBoundary()
    .then(() => app.map.drawStreets())
    .catch((error) => console.error(error)),
  app.list.loadCategories().then(() => app.list.load()),
]);
document.body.dataset.ready = "true";
