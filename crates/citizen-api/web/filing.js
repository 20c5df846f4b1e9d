// Filing a report (docs/web-app.md, "Filing"): the location by a click on the map, by the
// keyboard alone (arrow keys move the pin, Enter drops it), by a street's name or typed into the
// coordinate field; title, description, photos with previews; the open reports nearby before
// sending; the API's `userinfo` for every refusal; an Idempotency-Key on every send.

const NEARBY_METRES = 200;

function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/// "50.08, 14.42" (latitude, longitude) → {lat, lon}, or null.
export function parseCoordinates(text) {
  const parts = text.split(/[,;\s]+/).filter(Boolean).map(Number);
  if (parts.length !== 2 || !parts.every(Number.isFinite)) return null;
  const [lat, lon] = parts;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return { lat, lon };
}

const TEMPLATE = `
  <h2 id="filing-title" tabindex="-1" data-i18n="fileNew"></h2>
  <form id="filing-form" novalidate>
    <fieldset>
      <legend data-i18n="location"></legend>
      <p id="location-help" class="help" data-i18n="locationHelp"></p>
      <button type="button" id="pick-on-map" data-i18n="pickOnMap"></button>
      <label for="coordinates" data-i18n="coordinates"></label>
      <input id="coordinates" name="coordinates" inputmode="decimal" autocomplete="off" aria-describedby="location-help">
      <label for="street-q" data-i18n="streetName"></label>
      <span class="inline">
        <input id="street-q" type="search" autocomplete="off">
        <button type="button" id="street-search" data-i18n="findStreet"></button>
      </span>
      <ul id="street-results" class="choices" aria-live="polite"></ul>
    </fieldset>
    <section id="nearby" class="nearby" aria-labelledby="nearby-title" hidden>
      <h3 id="nearby-title" data-i18n="nearbyTitle"></h3>
      <p class="help" data-i18n="nearbyHelp"></p>
      <ul id="nearby-list"></ul>
    </section>
    <label for="title" data-i18n="titleLabel"></label>
    <input id="title" name="title" required maxlength="256">
    <label for="description" data-i18n="descriptionLabel"></label>
    <textarea id="description" name="description" required maxlength="2048" rows="4"></textarea>
    <label for="photos" data-i18n="photosLabel"></label>
    <input id="photos" name="media" type="file" accept="image/jpeg,image/png,image/webp,image/heic" multiple>
    <ul id="previews" class="previews"></ul>
    <p id="filing-error" class="error" role="alert"></p>
    <p class="actions">
      <button type="submit" class="primary" id="send" data-i18n="send"></button>
      <button type="button" id="filing-cancel" data-i18n="cancel"></button>
    </p>
  </form>`;

/// `app`: {api, t, i18n, auth, map, list, navigate, config}.
export function createFiling(app) {
  const root = document.getElementById("filing");
  root.innerHTML = TEMPLATE; // a constant: no data goes in as HTML
  app.i18n.apply(root);
  const form = root.querySelector("#filing-form");
  const coordinates = root.querySelector("#coordinates");
  const error = root.querySelector("#filing-error");
  const photos = root.querySelector("#photos");
  const previews = root.querySelector("#previews");
  const streetQ = root.querySelector("#street-q");
  const streetResults = root.querySelector("#street-results");
  const nearby = root.querySelector("#nearby");
  const nearbyList = root.querySelector("#nearby-list");
  let key = null; // kept while the form is unchanged, so a repeated send files once
  let location = null;
  let onDone = () => {};

  const changed = () => {
    key = null;
  };
  form.addEventListener("input", changed);

  function setLocation(at, { fromField = false } = {}) {
    location = at ? { lat: at.lat, lon: at.lng ?? at.lon } : null;
    if (location && !fromField) {
      coordinates.value = `${location.lat.toFixed(6)}, ${location.lon.toFixed(6)}`;
    }
    changed();
    if (location) loadNearby();
  }

  async function loadNearby() {
    const at = location;
    try {
      const page = await app.api.citizen(
        `/reports${app.api.query({ location: `${at.lon},${at.lat},${NEARBY_METRES}`, status: "open", orderBy: "location", orderDirection: "asc", limit: 5 })}`,
      );
      if (at !== location) return;
      const rows = page?.reports ?? [];
      nearbyList.replaceChildren(
        ...rows.map((report) => app.reportItem(report, ` (${Math.round(report.distance ?? 0)} m)`)),
      );
      nearby.hidden = rows.length === 0;
    } catch (failure) {
      console.error(failure);
      nearby.hidden = true;
    }
  }

  function startPicking() {
    app.map.pick({
      onMove: (at) => setLocation(at),
      onDrop: (at) => {
        setLocation(at);
        root.querySelector("#title").focus();
      },
    });
  }

  root.querySelector("#pick-on-map").addEventListener("click", () => {
    document.getElementById("map").focus();
  });

  coordinates.addEventListener("change", () => {
    const at = parseCoordinates(coordinates.value);
    if (!at) {
      location = null;
      return;
    }
    app.map.setPin(at.lat, at.lon);
    setLocation(at, { fromField: true });
  });

  async function findStreets() {
    const q = streetQ.value.trim();
    streetResults.replaceChildren();
    if (!q) return;
    try {
      const streets = await app.api.streets(`/streets${app.api.query({ q, limit: 10 })}`);
      if (!streets?.length) {
        const item = document.createElement("li");
        item.textContent = app.t("noStreets");
        streetResults.append(item);
        return;
      }
      for (const street of streets) {
        const item = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.className = "link-button street-choice";
        button.textContent = street.properties?.N_GM_U ?? String(street._id);
        button.addEventListener("click", () => {
          // A point of the street: the middle vertex of its longest line.
          const lines = street.geometry?.coordinates ?? [];
          const line = lines.reduce((a, b) => (b.length > a.length ? b : a), []);
          const [lon, lat] = line[Math.floor(line.length / 2)] ?? [];
          if (!Number.isFinite(lat)) return;
          setLocation(app.map.setPin(lat, lon));
          streetResults.replaceChildren();
          streetQ.value = button.textContent;
          root.querySelector("#title").focus();
        });
        item.append(button);
        streetResults.append(item);
      }
    } catch (failure) {
      error.textContent = failure.userinfo || app.t("failed");
    }
  }
  root.querySelector("#street-search").addEventListener("click", findStreets);
  streetQ.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      findStreets();
    }
  });

  photos.addEventListener("change", async () => {
    previews.replaceChildren();
    for (const [index, file] of [...photos.files].entries()) {
      const item = document.createElement("li");
      const canvas = document.createElement("canvas");
      // A canvas, not <img src=blob:…>: the CSP allows images from the platform alone.
      canvas.setAttribute("role", "img");
      canvas.setAttribute("aria-label", app.t("previewOf", { name: file.name }));
      canvas.dataset.preview = String(index);
      item.append(canvas);
      previews.append(item);
      try {
        const bitmap = await createImageBitmap(file);
        const scale = Math.min(1, 120 / Math.max(bitmap.width, bitmap.height));
        canvas.width = Math.max(1, Math.round(bitmap.width * scale));
        canvas.height = Math.max(1, Math.round(bitmap.height * scale));
        canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
        bitmap.close();
      } catch {
        canvas.replaceWith(document.createTextNode(file.name));
      }
    }
  });

  // The CAPTCHA of anonymous filings (docs/web-app.md, "CAPTCHA"): the widget's script
  // (`app:captcha-script`, reCAPTCHA v3's API or a compatible one) is loaded when an anonymous
  // citizen opens the form, and its token goes with the filing as `captchaToken`.
  let captchaLoading = null;
  function loadCaptcha() {
    const { captchaSiteKey: siteKey, captchaScript: src } = app.config;
    if (!siteKey || !src || app.auth.signedIn() || window.grecaptcha || captchaLoading) return captchaLoading;
    captchaLoading = new Promise((resolve) => {
      const script = document.createElement("script");
      const url = new URL(src, window.location.href);
      url.searchParams.set("render", siteKey);
      script.src = url.href;
      script.onload = () => resolve(true);
      script.onerror = () => {
        captchaLoading = null;
        resolve(false);
      };
      document.head.append(script);
    });
    return captchaLoading;
  }

  async function captchaToken() {
    const siteKey = app.config.captchaSiteKey;
    if (!siteKey || app.auth.signedIn()) return null;
    await loadCaptcha();
    if (!window.grecaptcha) return null;
    return new Promise((resolve) => {
      window.grecaptcha.ready(() =>
        window.grecaptcha.execute(siteKey, { action: "report" }).then(resolve, () => resolve(null)),
      );
    });
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const typed = parseCoordinates(coordinates.value);
    if (coordinates.value.trim() && !typed) {
      error.textContent = app.t("badCoordinates");
      coordinates.focus();
      return;
    }
    if (typed) location = typed;
    for (const name of ["title", "description"]) {
      const field = form.elements[name];
      if (!field.value.trim()) {
        error.textContent = app.t("required", { field: app.t(`${name}Label`) });
        field.focus();
        return;
      }
    }
    const data = new FormData();
    data.append("title", form.elements.title.value.trim());
    data.append("description", form.elements.description.value.trim());
    if (location) data.append("location", `${location.lon},${location.lat}`);
    // The token before the photos: the API verifies it as it arrives, before storing a file.
    const token = await captchaToken();
    if (token) data.append("captchaToken", token);
    for (const file of photos.files) data.append("media", file, file.name);
    key ??= newKey();
    const send = root.querySelector("#send");
    send.disabled = true;
    try {
      const report = await app.api.citizen("/reports", {
        method: "POST",
        body: data,
        headers: { "Idempotency-Key": key },
      });
      reset();
      onDone(report);
    } catch (failure) {
      error.textContent = failure.userinfo || app.t("failed");
    } finally {
      send.disabled = false;
    }
  });

  function reset() {
    form.reset();
    previews.replaceChildren();
    streetResults.replaceChildren();
    nearby.hidden = true;
    location = null;
    key = null;
    error.textContent = "";
  }

  root.querySelector("#filing-cancel").addEventListener("click", () => {
    reset();
    close();
  });

  function open(done) {
    onDone = done;
    root.hidden = false;
    startPicking();
    root.querySelector("#filing-title").focus();
    loadCaptcha();
  }

  function close() {
    root.hidden = true;
    app.map.pick(null);
    document.getElementById("file-open").hidden = false;
  }

  return { open, close, isOpen: () => !root.hidden, retranslate: () => app.i18n.apply(root) };
}
