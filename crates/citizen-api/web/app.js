// The citizens' web app (docs/web-app.md): a plain ES module, no build step. citizen-api fills
// the page's <meta name="app:*"> from its settings; Leaflet (vendor/leaflet) is loaded before
// this module as a classic deferred script, so `window.L` is there when it runs.

const LANGUAGES = ["cs", "en", "uk"];
const STORED_LANGUAGE = "citizen-app.language";

const meta = (name) => document.querySelector(`meta[name="app:${name}"]`)?.content ?? "";
const config = {
  api: meta("api-base"),
  streetsApi: meta("streets-api"),
  platformMessages: meta("platform-messages"),
  texts: meta("texts"),
};

function storedLanguage() {
  try {
    return localStorage.getItem(STORED_LANGUAGE);
  } catch {
    return null; // storage off (private mode): the browser's choice then
  }
}

function chooseLanguage() {
  const stored = storedLanguage();
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages ?? []) {
    const primary = tag.toLowerCase().split("-")[0];
    if (LANGUAGES.includes(primary)) return primary;
  }
  return "cs";
}

let texts = {};
let language = chooseLanguage();
let reports = [];
const t = (key) => key.split(".").reduce((node, part) => node?.[part], texts[language]) ?? key;

function translatePage() {
  document.documentElement.lang = language;
  document.title = t("appName");
  for (const element of document.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
  document.getElementById("language").value = language;
}

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

const map = window.L.map("map", { keyboard: true });
map.setView([50.08, 14.42], 12);
const markers = window.L.layerGroup().addTo(map);

async function drawBoundary() {
  const boundary = await getJson(`${config.api}/geo/boundary`);
  const layer = window.L.geoJSON(boundary, { style: { className: "boundary", fill: false } });
  layer.addTo(map);
  const bounds = layer.getBounds();
  if (bounds.isValid()) map.fitBounds(bounds);
}

function statusText(report) {
  return t(`status.${report.status ?? "none"}`);
}

function renderReports() {
  const list = document.getElementById("report-list");
  const status = document.getElementById("status");
  list.replaceChildren();
  markers.clearLayers();
  if (reports.length) {
    delete status.dataset.i18n;
    status.textContent = "";
  } else {
    status.dataset.i18n = "noReports";
    status.textContent = t("noReports");
  }
  for (const report of reports) {
    const item = document.createElement("li");
    const title = document.createElement("span");
    title.className = "title";
    title.textContent = report.title;
    const state = document.createElement("span");
    state.className = `status status-${report.status ?? "open"}`;
    state.textContent = statusText(report);
    item.append(title, " ", state);
    list.append(item);
    const [lon, lat] = report.location?.coordinates ?? [];
    if (Number.isFinite(lat) && Number.isFinite(lon)) {
      // A text node, not a string: Leaflet puts strings in as HTML.
      const tooltip = document.createElement("span");
      tooltip.textContent = `${report.title} (${statusText(report)})`;
      window.L.circleMarker([lat, lon], { radius: 7, className: "report-marker" })
        .bindTooltip(tooltip)
        .addTo(markers);
    }
  }
}

async function loadReports() {
  try {
    const page = await getJson(`${config.api}/reports?limit=20`);
    reports = page.reports ?? [];
    renderReports();
  } catch (error) {
    console.error(error);
    const status = document.getElementById("status");
    status.dataset.i18n = "loadFailed";
    status.textContent = t("loadFailed");
  }
}

document.getElementById("language").addEventListener("change", (event) => {
  language = LANGUAGES.includes(event.target.value) ? event.target.value : "cs";
  try {
    localStorage.setItem(STORED_LANGUAGE, language);
  } catch {
    // not remembered when storage is off
  }
  translatePage();
  renderReports();
});

texts = await getJson(config.texts);
translatePage();
await Promise.all([drawBoundary().catch((error) => console.error(error)), loadReports()]);
