"""The web app's figures for docs/benchmarks.md: the JS and CSS the map page loads on a first visit
(each response gzipped at level 9, as a server or proxy would send it) and the time from navigation
to the first report marker on the demo city (cold cache, median of RUNS). Run with the browser
suite's Python, after `cargo build --bins`:

    BROWSER_BIN_DIR=target/debug ~/.cache/citizen-browser-venv/bin/python tests/browser/measure.py
"""

import gzip
import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from playwright.sync_api import sync_playwright  # noqa: E402

import services  # noqa: E402

RUNS = int(os.environ.get("RUNS", "10"))
FIRST_MARKER = """
new MutationObserver((_, observer) => {
  if (document.querySelector('path.report-marker')) {
    window.__firstMarker = performance.now();
    observer.disconnect();
  }
}).observe(document, { subtree: true, childList: true });
"""


def main():
    platform = services.start()
    try:
        with sync_playwright() as playwright:
            args = ["--no-sandbox"] if os.geteuid() == 0 else []
            browser = playwright.chromium.launch(
                executable_path=os.environ.get("BROWSER_CHROMIUM", "/usr/bin/chromium"), args=args
            )
            sizes = {}
            times = []
            for run in range(RUNS):
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                context.add_init_script(FIRST_MARKER)
                page = context.new_page()
                if run == 0:
                    def keep(response):
                        if response.request.resource_type in ("script", "stylesheet"):
                            body = response.body()
                            sizes[response.url.split("/")[-1]] = (len(body), len(gzip.compress(body, 9)))
                    page.on("response", keep)
                page.goto(f"{platform.url}/")
                page.wait_for_function("() => window.__firstMarker !== undefined")
                page.wait_for_selector("body[data-ready=true]", state="attached")
                times.append(page.evaluate("window.__firstMarker"))
                context.close()
            browser.close()
    finally:
        services.cleanup(platform)
    print(json.dumps({
        "files": {name: {"bytes": raw, "gzip": packed} for name, (raw, packed) in sorted(sizes.items())},
        "total_bytes": sum(raw for raw, _ in sizes.values()),
        "total_gzip": sum(packed for _, packed in sizes.values()),
        "first_marker_ms": {"median": round(statistics.median(times), 1), "min": round(min(times), 1), "max": round(max(times), 1), "runs": RUNS},
    }, indent=1))


if __name__ == "__main__":
    main()
