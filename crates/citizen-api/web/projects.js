// The city's projects at /projects and /projects/<id> (docs/web-app.md, "News and projects"):
// the list as the API orders it (open from, newest first) and a project's page with its
// description and pictures.

const PAGE = 20;

/// `app`: {api, t, el, routeLink, imageAllowed, formatDate, config}.
export function createProjects(app) {
  const { el } = app;
  const listRoot = document.getElementById("projects-page");
  const itemRoot = document.getElementById("project-page");
  let projects = [];
  let cursor = null;

  function renderList() {
    listRoot.querySelector("#project-list").replaceChildren(
      ...projects.map((project) =>
        el(
          "li",
          { "data-project": project.project_id },
          app.routeLink(`/projects/${encodeURIComponent(project.project_id)}`, project.title),
          el("p", { class: "meta" }, el("time", { dateTime: project.open_from }, app.formatDate(project.open_from))),
        ),
      ),
    );
    listRoot.querySelector("#projects-status").textContent = projects.length ? "" : app.t("noProjects");
    listRoot.querySelector("#projects-more").hidden = !cursor;
  }

  async function load({ append = false } = {}) {
    const query = app.api.query({ limit: PAGE, pagecursor: append ? cursor ?? undefined : undefined });
    try {
      const page = await app.api.citizen(`/projects${query}`, { signedIn: false });
      projects = append ? projects.concat(page?.projects ?? []) : page?.projects ?? [];
      cursor = page?.nextCursor?.length ? page.nextCursor : null;
      renderList();
    } catch (error) {
      listRoot.querySelector("#projects-status").textContent = error.userinfo || app.t("pageFailed");
    }
  }

  async function showList({ keepFocus = false } = {}) {
    document.title = `${app.t("projects")} – ${app.t("appName")}`;
    const more = el("button", { type: "button", id: "projects-more", hidden: true }, app.t("more"));
    more.addEventListener("click", () => load({ append: true }));
    listRoot.replaceChildren(
      el("h1", { id: "projects-title", tabIndex: -1 }, app.t("projects")),
      el("p", { id: "projects-status", role: "status" }, app.t("loading")),
      el("ol", { id: "project-list", class: "reports" }),
      more,
    );
    if (!keepFocus) listRoot.querySelector("h1").focus();
    await load();
  }

  function showItem(id) {
    return app.showDetail(itemRoot, {
      load: () => app.api.citizen(`/projects/${encodeURIComponent(id)}`, { signedIn: false }),
      titleId: "project-title",
      missing: "projectMissing",
      back: { path: "/projects", key: "backToProjects" },
      render: (project) => {
        const pictures = (project.media ?? []).filter((m) => app.imageAllowed(m.public_url, app.config.mediaOrigin));
        return [
          el("p", { class: "meta" }, el("time", { dateTime: project.open_from }, app.formatDate(project.open_from))),
          el("p", { class: "description" }, project.description),
          pictures.length
            ? el(
                "ul",
                { class: "photos", "aria-label": app.t("photos") },
                pictures.map((media, index) =>
                  el("li", {}, el("img", { src: media.public_url, alt: app.t("pictureAlt", { n: index + 1 }), loading: "lazy" })),
                ),
              )
            : null,
        ];
      },
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
