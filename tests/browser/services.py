"""The three services and the broker for the browser suite, started like `make run` starts them
(scripts/run-local.sh): SQLite databases in a temporary directory, the demo data, and a Mosquitto
of the suite's own with MQTT over TCP and over WebSocket as in production (platform-messages'
in-process broker has no WebSocket listener yet), each on a free port of 127.0.0.1."""

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEV_SECRET = "browser-suite-dev-secret"
CLIENT_ID = "citizen-web"
# A P-256 private key for the suite's VAPID (the same as tests/api's).
VAPID_PRIVATE = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
# The Open311 facade's API key of the suite's integrator `georeport` (test_open311_client.py):
# filing through POST requests needs one; the reads do not.
OPEN311_INTEGRATOR = "georeport"
OPEN311_API_KEY = "browser-suite-open311-key"
MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
START_TIMEOUT = float(os.environ.get("BROWSER_START_TIMEOUT", "90"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bin_dir() -> Path:
    if os.environ.get("BROWSER_BIN_DIR"):
        return Path(os.environ["BROWSER_BIN_DIR"])
    target = os.environ.get("CARGO_TARGET_DIR") or str(REPO / "target")
    return Path(target) / "debug"


@dataclass
class Service:
    name: str
    port: int
    env: dict
    process: subprocess.Popen | None = None
    log: Path | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@dataclass
class Platform:
    work: Path
    citizen: Service
    messages: Service
    streets: Service
    mqtt_port: int
    ws_port: int
    services: list = field(default_factory=list)
    broker: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return self.citizen.base

    def token(self, service: str, sub: str, scopes: list[str]) -> str:
        """A dev token minted by the service's own `dev-token` command."""
        args = [str(bin_dir() / service), "dev-token", "--sub", sub]
        for scope in scopes:
            args += ["--scope", scope]
        env = {**os.environ, **(self.citizen.env if service == "citizen-api" else self.messages.env)}
        out = subprocess.run(args, env=env, cwd=REPO, check=True, capture_output=True, text=True)
        return out.stdout.strip().splitlines()[-1]

    def call(self, method: str, url: str, body=None, token: str | None = None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Accept", "application/json")
        if body is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read()
            return json.loads(text) if text else None

    def stop(self):
        for service in reversed(self.services):
            if service.process and service.process.poll() is None:
                service.process.terminate()
        for service in reversed(self.services):
            if service.process:
                try:
                    service.process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    service.process.kill()
        if self.broker and self.broker.poll() is None:
            self.broker.terminate()
            self.broker.wait(timeout=20)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except Exception:
        return False


def _start_mosquitto(work: Path, mqtt: int, ws: int) -> subprocess.Popen:
    """A Mosquitto of the suite's own, as in production (docs/operations.md, "MQTT over
    WebSocket"): MQTT over TCP for the services, over WebSocket for the browser."""
    config = work / "mosquitto.conf"
    config.write_text(
        f"listener {mqtt} 127.0.0.1\nallow_anonymous true\n"
        f"listener {ws} 127.0.0.1\nprotocol websockets\n"
    )
    log = (work / "mosquitto.log").open("w")
    broker = subprocess.Popen(
        [MOSQUITTO, "-c", str(config)], stdout=log, stderr=subprocess.STDOUT
    )
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            socket.create_connection(("127.0.0.1", ws), timeout=1).close()
            socket.create_connection(("127.0.0.1", mqtt), timeout=1).close()
            return broker
        except OSError:
            if broker.poll() is not None or time.monotonic() > deadline:
                broker.kill()
                raise RuntimeError("mosquitto did not start: " + (work / "mosquitto.log").read_text())
            time.sleep(0.1)  # polling a child's start-up, not waiting for work


def _launch(platform: "Platform", service: Service):
    """Starts `service` and waits for its /readyz (polling a child's start-up)."""
    binary = bin_dir() / service.name
    if not binary.exists():
        raise RuntimeError(f"{binary} is not built (cargo build --bins)")
    service.log = platform.work / f"{service.name}-{service.port}.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CITIZEN_API__", "PLATFORM_MESSAGES__", "STREETS_API__"))}
    env.update(service.env)
    service.process = subprocess.Popen(
        [str(binary), "serve"], cwd=REPO, env=env,
        stdout=service.log.open("w"), stderr=subprocess.STDOUT,
    )
    platform.services.append(service)
    deadline = time.monotonic() + START_TIMEOUT
    while not _answers(f"{service.base}/readyz"):
        if service.process.poll() is not None or time.monotonic() > deadline:
            tail = service.log.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"{service.name} did not start:\n{tail}")
        time.sleep(0.1)  # polling a child's start-up, not waiting for work


def _citizen(work: Path, port: int, st: int, pm: int, mqtt: int, ws: int, db: str, overrides: dict) -> Service:
    origin = f"http://127.0.0.1:{port}"
    return Service("citizen-api", port, {
        "CITIZEN_API__HTTP__HOST": "127.0.0.1",
        "CITIZEN_API__TELEMETRY__FORMAT": "json",
        "CITIZEN_API__TELEMETRY__FILTER": "warn",
        "CITIZEN_API__HTTP__PORT": str(port),
        "CITIZEN_API__DATABASE__URL": f"sqlite://{work}/{db}.db",
        "CITIZEN_API__DEMO__LOAD_WHEN_EMPTY": "true",
        "CITIZEN_API__AUTH__DEV_SECRET": DEV_SECRET,
        "CITIZEN_API__MQTT__URL": f"mqtt://127.0.0.1:{mqtt}",
        "CITIZEN_API__MEDIA__DIR": str(work / "media"),
        "CITIZEN_API__MEDIA__PUBLIC_BASE_URL": f"{origin}/api/v1/media",
        "CITIZEN_API__RATE_LIMIT__ANONYMOUS_REPORTS_PER_HOUR": "1000",
        "CITIZEN_API__RATE_LIMIT__BURST": "1000",
        "CITIZEN_API__WEB__STREETS_API_URL": f"http://127.0.0.1:{st}/api/v1",
        "CITIZEN_API__WEB__PLATFORM_MESSAGES_URL": f"http://127.0.0.1:{pm}/api/v1",
        "CITIZEN_API__WEB__MQTT_WEBSOCKET_URL": f"ws://127.0.0.1:{ws}/mqtt",
        "CITIZEN_API__WEB__CLIENT_ID": CLIENT_ID,
        # Notifications link to the report's page on this site (docs/notifications.md).
        "CITIZEN_API__HTTP__PUBLIC_URL": f"{origin}/api/v1",
        # Web push: the key browsers subscribe with; nothing is sent to a push service from
        # here (delivery is covered by tests/api against a stand-in).
        "CITIZEN_API__NOTIFICATIONS__WEBPUSH__VAPID_PRIVATE_KEY": VAPID_PRIVATE,
        "CITIZEN_API__NOTIFICATIONS__DELIVERY__ENABLED": "false",
        "CITIZEN_API__NOTIFICATIONS__WORKER__POLL_MILLIS": "100",
        # Open311 (docs/open311.md): one integrator's key; the jurisdiction stays at its
        # default, city.example.
        f"CITIZEN_API__OPEN311__API_KEYS__{OPEN311_INTEGRATOR.upper()}": OPEN311_API_KEY,
        **overrides,
    })


def start() -> Platform:
    work = Path(tempfile.mkdtemp(prefix="browser-suite-"))
    (work / "media").mkdir()
    ca, pm, st = free_port(), free_port(), free_port()
    mqtt, ws = free_port(), free_port()
    origin = f"http://127.0.0.1:{ca}"
    common = lambda prefix: {  # noqa: E731
        f"{prefix}__HTTP__HOST": "127.0.0.1",
        f"{prefix}__TELEMETRY__FORMAT": "json",
        f"{prefix}__TELEMETRY__FILTER": "warn",
    }
    streets = Service("streets-api", st, {
        **common("STREETS_API"),
        "STREETS_API__HTTP__PORT": str(st),
        "STREETS_API__DATABASE__URL": f"sqlite://{work}/streets-api.db",
        "STREETS_API__DEMO__LOAD_WHEN_EMPTY": "true",
    })
    messages = Service("platform-messages", pm, {
        **common("PLATFORM_MESSAGES"),
        "PLATFORM_MESSAGES__HTTP__PORT": str(pm),
        "PLATFORM_MESSAGES__HTTP__CORS_ALLOWED_ORIGINS": origin,
        "PLATFORM_MESSAGES__DATABASE__URL": f"sqlite://{work}/platform-messages.db",
        "PLATFORM_MESSAGES__MQTT__EMBEDDED_BROKER": "false",
        "PLATFORM_MESSAGES__MQTT__URL": f"mqtt://127.0.0.1:{mqtt}",
        "PLATFORM_MESSAGES__AUTH__DEV_SECRET": DEV_SECRET,
    })
    citizen = _citizen(work, ca, st, pm, mqtt, ws, "citizen-api", {})
    platform = Platform(work, citizen, messages, streets, mqtt, ws)
    try:
        platform.broker = _start_mosquitto(work, mqtt, ws)
        for service in (streets, messages, citizen):
            _launch(platform, service)
    except BaseException:
        platform.stop()
        raise
    return platform


def start_citizen(platform: Platform, name: str, overrides: dict) -> Service:
    """Another citizen-api beside the platform's (its own SQLite database `name`, the same
    streets-api, platform-messages and broker), with `overrides` of its settings; stopped with
    the platform."""
    port = free_port()
    service = _citizen(
        platform.work, port, platform.streets.port, platform.messages.port,
        platform.mqtt_port, platform.ws_port, name,
        {"CITIZEN_API__DEMO__LOAD_WHEN_EMPTY": "false", **overrides},
    )
    _launch(platform, service)
    return service


def cleanup(platform: Platform):
    platform.stop()
    if not os.environ.get("BROWSER_KEEP_WORK"):
        shutil.rmtree(platform.work, ignore_errors=True)
