// The map (docs/web-app.md, "The map"): the boundary from citizen-api, the streets from
// streets-api's OGC API (bbox paging), report markers, and the filing pin. Leaflet draws every
// feature as one SVG path; no tiles are loaded.

const L = window.L;
const STREETS_PAGE = 1000;

/// `app`: {api, t}. `onSelect(id)` is called when a marker is clicked.
export function createMap(app, element, onSelect) {
  const map = L.map(element, { keyboard: true, preferCanvas: false, zoomSnap: 0.25 });
  map.setView([50.08, 14.42], 12);
  const streets = L.layerGroup().addTo(map);
  const markers = L.layerGroup().addTo(map);
  const byId = new Map();
  let boundaryBounds = null;
  let pin = null;
  let picking = null; // {onMove, onDrop} while the filing form asks for a location

  async function drawBoundary() {
    const boundary = await app.api.citizen("/geo/boundary");
    const layer = L.geoJSON(boundary, {
      style: { className: "boundary", fill: false },
      interactive: false,
    });
    layer.addTo(map);
    const bounds = layer.getBounds();
    if (bounds.isValid()) {
      boundaryBounds = bounds;
      map.fitBounds(bounds);
    }
    return bounds;
  }

  /// Every street in the box of the boundary, page by page (`offset`), drawn as one layer each.
  async function drawStreets() {
    const box = boundaryBounds ?? map.getBounds();
    const bbox = [box.getWest(), box.getSouth(), box.getEast(), box.getNorth()].join(",");
    let offset = 0;
    let count = 0;
    for (;;) {
      const page = await app.api.streets(
        `/collections/streets/items${app.api.query({ bbox, limit: STREETS_PAGE, offset })}`,
        { headers: { Accept: "application/geo+json" } },
      );
      const features = page?.features ?? [];
      L.geoJSON(features, {
        style: { className: "street", weight: 2 },
        interactive: false,
      }).addTo(streets);
      count += features.length;
      offset += features.length;
      if (features.length < STREETS_PAGE) break;
    }
    element.dataset.streets = String(count);
    return count;
  }

  function showReports(reports, statusText) {
    markers.clearLayers();
    byId.clear();
    for (const report of reports) {
      const [lon, lat] = report.location?.coordinates ?? [];
      if (!Number.isFinite(lat) || !Number.isFinite(lon)) continue;
      // A text node, not a string: Leaflet puts strings in as HTML.
      const tooltip = document.createElement("span");
      tooltip.textContent = `${report.title} (${statusText(report)})`;
      const marker = L.circleMarker([lat, lon], {
        radius: 8,
        className: `report-marker status-${report.status ?? "open"}`,
      })
        .bindTooltip(tooltip)
        .on("click", () => onSelect(report.id))
        .addTo(markers);
      marker.getElement()?.setAttribute("data-report", report.id);
      // Not a tab stop each: the map is one (its arrows pan it), and the list beside it is the
      // keyboard's way to every report ("skip the map"); 100 markers stood between the map
      // and the filing button.
      marker.getElement()?.setAttribute("tabindex", "-1");
      byId.set(report.id, marker);
    }
    element.dataset.markers = String(byId.size);
  }

  function highlight(id) {
    for (const [reportId, marker] of byId) {
      const selected = reportId === id;
      marker.getElement()?.classList.toggle("selected", selected);
      marker.setRadius(selected ? 12 : 8);
      if (selected) {
        marker.bringToFront();
        if (!map.getBounds().contains(marker.getLatLng())) map.panTo(marker.getLatLng());
      }
    }
  }

  function placePin(latlng) {
    if (!pin) {
      pin = L.circleMarker(latlng, { radius: 10, className: "pin", interactive: false }).addTo(map);
    } else {
      pin.setLatLng(latlng);
    }
    return pin.getLatLng();
  }

  map.on("click", (event) => {
    if (!picking) return;
    const at = placePin(event.latlng);
    picking.onMove(at);
    picking.onDrop(at);
  });

  // While picking, the arrow keys move the pin (not the map) and Enter drops it.
  const STEPS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  element.addEventListener(
    "keydown",
    (event) => {
      if (!picking) return;
      const step = STEPS[event.key];
      if (step) {
        event.preventDefault();
        event.stopPropagation();
        const from = pin ? pin.getLatLng() : map.getCenter();
        const pixels = event.shiftKey ? 50 : 10;
        const point = map.latLngToContainerPoint(from).add([step[0] * pixels, step[1] * pixels]);
        const at = placePin(map.containerPointToLatLng(point));
        if (!map.getBounds().pad(-0.1).contains(at)) map.panTo(at);
        picking.onMove(at);
      } else if (event.key === "Enter") {
        event.preventDefault();
        event.stopPropagation();
        picking.onDrop(placePin(pin ? pin.getLatLng() : map.getCenter()));
      }
    },
    true,
  );

  return {
    leaflet: map,
    drawBoundary,
    drawStreets,
    showReports,
    highlight,
    /// Starts (callbacks) or ends (null) the filing's location picking.
    pick(callbacks) {
      picking = callbacks;
      element.classList.toggle("picking", Boolean(callbacks));
      if (!callbacks && pin) {
        pin.remove();
        pin = null;
      }
    },
    /// Moves the pin to a typed location (the coordinate field, a street).
    setPin(lat, lon) {
      const at = placePin(L.latLng(lat, lon));
      map.panTo(at);
      return at;
    },
    invalidate: () => map.invalidateSize(),
    /// Shows every marker drawn (a small map of a few reports).
    fit() {
      const bounds = L.featureGroup([...byId.values()]).getBounds();
      if (bounds.isValid()) map.fitBounds(bounds.pad(0.5), { maxZoom: 17 });
    },
  };
}
