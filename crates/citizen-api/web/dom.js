// Building the page's elements from data without HTML: every text goes in as a text node, so a
// title or a notification can never become markup (docs/web-app.md, "Content-Security-Policy").

/// `el("a", {href, class, "data-route": ""}, child, …)`: an element with its properties (`class`,
/// `data-*` and `aria-*` as attributes, the rest as properties) and its children (strings become
/// text; null and undefined are left out).
export function el(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (key === "class") element.className = value;
    else if (key.startsWith("data-") || key.startsWith("aria-") || key === "role") element.setAttribute(key, value);
    else element[key] = value;
  }
  element.append(...present(children));
  return element;
}

/// The nodes of `children` to insert, nested arrays flattened and absent ones (null, undefined,
/// false) left out: `append` and `replaceChildren` would insert an absent one as the text
/// "null" (a report's page showed it where a report has no photos).
export function present(children) {
  return children.flat().filter((child) => child !== null && child !== undefined && child !== false);
}

/// A link the app's router follows without a reload (`data-route`).
export function routeLink(path, text, props = {}) {
  return el("a", { href: path, "data-route": "", ...props }, text);
}

/// A report in a list: its title linking to its page, then what `after` adds.
export function reportItem(report, ...after) {
  return el("li", {}, routeLink(`/reports/${encodeURIComponent(report.id)}`, report.title), ...after);
}

/// The path of `url` when it is a page of this site (`origin` or the page's own origin), for the
/// router; else null (a link elsewhere opens as a plain link).
export function sitePath(url, origin) {
  try {
    const parsed = new URL(url, window.location.href);
    const own = [window.location.origin, origin].filter(Boolean);
    return own.includes(parsed.origin) ? `${parsed.pathname}${parsed.search}` : null;
  } catch {
    return null;
  }
}

/// Whether an image at `url` may be shown: the page's CSP allows images from the platform's own
/// origin and the media origin only (a news item's picture may be anywhere).
export function imageAllowed(url, mediaOrigin) {
  try {
    const origin = new URL(url, window.location.href).origin;
    return origin === window.location.origin || (Boolean(mediaOrigin) && origin === mediaOrigin);
  } catch {
    return false;
  }
}

/// A detail page (a news item's, a project's) into `root`: "loading", then the way back, the
/// item's title as the heading and what `render(item)` gives; or, when `load()` is refused, a
/// heading saying what is missing (`missing`, a text key) with the API's reason and the way back
/// (`back`: {path, key}). The focus goes to the heading either way.
export async function showDetail(app, root, { load, titleId, missing, back, render }) {
  root.replaceChildren(el("p", { role: "status" }, app.t("loading")));
  const backLink = () => el("p", {}, routeLink(back.path, app.t(back.key)));
  try {
    const item = await load();
    document.title = `${item.title} – ${app.t("appName")}`;
    root.replaceChildren(backLink(), el("h1", { id: titleId, tabIndex: -1 }, item.title), ...present(render(item)));
  } catch (error) {
    root.replaceChildren(
      el("h1", { id: titleId, tabIndex: -1 }, app.t(missing)),
      el("p", {}, error.userinfo || app.t("pageFailed")),
      backLink(),
    );
  }
  root.querySelector("h1").focus();
}
