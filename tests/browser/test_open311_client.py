"""Open311 through a third-party client (no browser): PyPI's `georeport` 0.3.1, as an integrator's
script uses it, reads the services, a service's definition and the requests in JSON and XML,
among them one filed with the suite's API key (newest first, text escaped once, none of the
filer's identity); filing and the updates need the key, an officer's accept is an update; the
client's documented flaw is pinned (an empty XML list makes it raise while the facade answers a
well-formed empty `<service_requests>`); and every JSON answer is valid against
docs/open311.schema.json."""

import json
import uuid
import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone

import pytest
import requests
from georeport import GeoReport
from jsonschema import Draft202012Validator

from helpers import get as api_get, post_json, until
from services import OPEN311_API_KEY, REPO

BASE = "/api/v1/open311/v2"
JURISDICTION = "city.example"  # open311.jurisdiction_id's default
SCHEMA = json.loads((REPO / "docs" / "open311.schema.json").read_text())
FORMATS = ["json", "xml"]
# Where test_notifications files too: inside the demo city.
LAT, LONG = 50.0875, 14.4213
# The filer's identity, sent with each filing and never to be read back.
FILER = {
    "email": "open311-filer@example.org",
    "first_name": "Jarmila",
    "last_name": "Podaná-Open311",
    "phone": "+420 777 123 456",
    "device_id": "browser-suite-device",
    "account_id": "integrator-account-77",
}
TIMEOUT = 10


def valid(name: str, answer):
    """`answer` against `#/$defs/<name>`, formats asserted; the first errors named."""
    validator = Draft202012Validator(
        {**SCHEMA, "$ref": f"#/$defs/{name}"}, format_checker=Draft202012Validator.FORMAT_CHECKER
    )
    errors = sorted(validator.iter_errors(answer), key=lambda e: list(e.absolute_path))
    assert not errors, f"{name} does not match docs/open311.schema.json: " + "; ".join(
        f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in errors[:5]
    )
    return answer


def items(value) -> list:
    """georeport's XML path: xmltodict makes one element a mapping, several a list."""
    return value if isinstance(value, list) else [value]


def root(platform) -> str:
    return f"{platform.citizen.base}{BASE}"


def client(platform, fmt: str) -> GeoReport:
    return GeoReport(root_address=root(platform), jurisdiction=JURISDICTION, api_key=OPEN311_API_KEY, output_format=fmt)


def get(platform, path: str, **params) -> requests.Response:
    return requests.get(f"{root(platform)}/{path}", params={"jurisdiction_id": JURISDICTION, **params}, timeout=TIMEOUT)


def xml_root(response: requests.Response, tag: str) -> ET.Element:
    assert response.headers["Content-Type"].startswith("text/xml"), response.headers["Content-Type"]
    assert response.content.startswith(b'<?xml version="1.0" encoding="utf-8"?>'), response.content[:80]
    element = ET.fromstring(response.content)
    assert element.tag == tag, f"root <{element.tag}>, expected <{tag}>: {response.text[:300]}"
    return element


def file_request(platform, fmt: str, description: str, **form) -> str:
    """POST requests.{fmt} as the standard's form, with the filer's identity; the new id."""
    code = get(platform, "services.json").json()[0]["service_code"]
    body = {
        "api_key": OPEN311_API_KEY, "jurisdiction_id": JURISDICTION, "service_code": code,
        "lat": str(LAT), "long": str(LONG), "description": description,
        "address_string": "Vinohradská 12, Praha", **FILER, **form,
    }
    response = requests.post(f"{root(platform)}/requests.{fmt}", data=body, timeout=TIMEOUT)
    assert response.status_code == 201, f"POST requests.{fmt}: {response.status_code} {response.text[:300]}"
    for value in FILER.values():
        assert value not in response.text, f"the POST answer shows the filer's {value!r}"
    if fmt == "json":
        return valid("post_requests_answer", response.json())[0]["service_request_id"]
    answer = xml_root(response, "service_requests")
    requests_ = answer.findall("request")
    assert len(answer) == len(requests_) == 1, f"one <request>: {response.text[:300]}"
    fields = {child.tag for child in requests_[0]}
    assert fields <= {"service_request_id", "service_notice"}, f"POST answer's fields: {fields}"
    return requests_[0].findtext("service_request_id")


def test_the_schema_is_draft_2020_12_and_its_formats_are_checked():
    Draft202012Validator.check_schema(SCHEMA)
    checked = set(Draft202012Validator.FORMAT_CHECKER.checkers)
    assert {"date-time", "uri", "uuid"} <= checked, (
        "jsonschema cannot assert date-time or uri: rfc3339-validator and rfc3986-validator "
        "(tests/browser/requirements.txt) are missing from the venv"
    )


def test_discovery_and_an_error_answer_match_the_schema(platform):
    valid("discovery", get(platform, "discovery.json").json())
    for fmt in FORMATS:
        with pytest.raises(requests.HTTPError) as raised:
            client(platform, fmt).get_service_definition("no-such-service")
        assert raised.value.response.status_code == 404
    unknown = get(platform, "services/no-such-service.json")
    assert unknown.status_code == 404, unknown.text
    assert valid("errors", unknown.json())[0]["code"] == 404


@pytest.mark.parametrize("fmt", FORMATS)
def test_services_and_their_definitions(platform, fmt):
    services = client(platform, fmt).get_service_list()
    if fmt == "json":
        valid("services", services)
    services = items(services)
    assert services, "the demo city has report categories, so services"
    codes = [service["service_code"] for service in services]
    assert all(isinstance(code, str) and code for code in codes), f"service codes are strings: {codes}"
    assert codes == [s["service_code"] for s in get(platform, "services.json").json()], "the same services in both formats"
    for code in codes:
        definition = client(platform, fmt).get_service_definition(code)
        if fmt == "json":
            assert valid("service_definition", definition) == {"service_code": code, "attributes": []}
        else:  # <attributes/> reads as None through xmltodict
            assert definition["service_code"] == code and not definition["attributes"], definition


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_filed_request_is_read_back_newest_first(platform, fmt):
    # Escaped exactly once in XML, so xmltodict reads back what was sent.
    description = f"Rozbitý obrubník & <díra> ({fmt}, Open311)"
    new_id = file_request(platform, fmt, description)
    assert uuid.UUID(new_id), new_id
    georeport = client(platform, fmt)

    listed = georeport.get_service_requests()
    if fmt == "json":
        valid("requests", listed)
        times = [datetime.fromisoformat(r["requested_datetime"].replace("Z", "+00:00")) for r in listed]
        assert times == sorted(times, reverse=True), "requests newest first"
    listed = items(listed)
    assert listed[0]["service_request_id"] == new_id, (
        f"the request just filed comes first: {[r['service_request_id'] for r in listed[:3]]}, filed {new_id}"
    )

    one = georeport.get_service_request(new_id)
    # JSON: the client takes the array's one element; XML: xmltodict makes the one <request> a
    # mapping (the client's quirk), not a list.
    assert isinstance(one, dict), f"get_service_request gives {type(one).__name__}"
    assert one["service_request_id"] == new_id
    assert one["status"] == "open", one
    assert one["description"] == description, f"description read back as {one['description']!r}"
    assert abs(float(one["lat"]) - LAT) < 1e-5 and abs(float(one["long"]) - LONG) < 1e-5, (one["lat"], one["long"])
    assert not set(one) & set(FILER), f"the filer's identity is read back: {set(one) & set(FILER)}"
    assert set(one) <= set(SCHEMA["$defs"]["request"]["properties"]), f"fields outside the standard's: {set(one) - set(SCHEMA['$defs']['request']['properties'])}"

    by_id = georeport.get_service_requests(service_request_id=new_id)
    if fmt == "json":
        assert len(valid("requests", by_id)) == 1, by_id
    else:
        assert isinstance(by_id, dict), f"one <request> reads as a mapping through georeport, got {type(by_id).__name__}"
    assert items(by_id)[0]["service_request_id"] == new_id

    raw = get(platform, f"requests/{new_id}.{fmt}")
    assert raw.status_code == 200, raw.text[:300]
    for value in FILER.values():
        assert value not in raw.text, f"requests/{{id}}.{fmt} shows the filer's {value!r}"
    if fmt == "json":
        assert len(valid("requests", raw.json())) == 1, "requests/{id}.json is a one-element array"
    else:
        answer = xml_root(raw, "service_requests")
        assert [child.tag for child in answer] == ["request"], f"one <request>: {raw.text[:300]}"
        json_one = get(platform, f"requests/{new_id}.json").json()[0]
        assert {child.tag for child in answer[0]} == set(json_one), "the same fields in XML and JSON"


@pytest.mark.parametrize("query", [
    {"service_request_id": str(uuid.uuid4())},
    {"start_date": "2001-01-01T00:00:00Z", "end_date": "2001-01-31T00:00:00Z"},
], ids=["unknown-id", "empty-window"])
def test_an_empty_xml_list_is_well_formed_though_georeport_raises(platform, query):
    assert client(platform, "json").get_service_requests(**query) == [], "JSON: an empty array"
    valid("requests", get(platform, "requests.json", **query).json())
    # georeport 0.3.1 reads data['service_requests']['request']; an empty <service_requests>
    # is None through xmltodict, so the client fails where the answer is right.
    with pytest.raises(TypeError):
        client(platform, "xml").get_service_requests(**query)
    raw = get(platform, "requests.xml", **query)
    assert raw.status_code == 200, f"{raw.status_code}: {raw.text[:300]}"
    answer = xml_root(raw, "service_requests")
    assert len(answer) == 0 and not (answer.text or "").strip(), f"an empty <service_requests>: {raw.text[:300]}"


def test_the_key_guards_filing_and_updates(platform):
    code = get(platform, "services.json").json()[0]["service_code"]
    form = {"jurisdiction_id": JURISDICTION, "service_code": code, "lat": str(LAT), "long": str(LONG), "description": "Bez klíče"}
    for key in (None, "", "not-the-suites-key"):
        body = form if key is None else {**form, "api_key": key}
        for fmt in FORMATS:
            refused = requests.post(f"{root(platform)}/requests.{fmt}", data=body, timeout=TIMEOUT)
            assert refused.status_code == 403, f"POST requests.{fmt}, api_key={key!r}: {refused.status_code} {refused.text[:300]}"
            if fmt == "json":
                assert valid("errors", refused.json())[0]["code"] == 403
            else:
                assert xml_root(refused, "errors").findtext("error/code") == "403", refused.text[:300]
        params = {} if key is None else {"api_key": key}
        refused = get(platform, "servicerequestupdates.json", **params)
        assert refused.status_code == 403, f"servicerequestupdates, api_key={key!r}: {refused.status_code} {refused.text[:300]}"
        assert valid("errors", refused.json())[0]["code"] == 403


def test_an_officers_accept_is_an_update(platform):
    new_id = file_request(platform, "json", "Vyvrácený sloupek (Open311, update)")
    officer = platform.token("citizen-api", "open311-officer", ["cityuser:reports:manage", "cityuser:report-categories:access-all"])
    admin = f"{platform.citizen.base}/api/v1/admin"
    issue = api_get(f"{admin}/reports/{new_id}/issues", officer)["issues"][0]["issue_id"]
    post_json(f"{admin}/issues/{issue}/accept", {}, officer)

    now = datetime.now(timezone.utc).replace(microsecond=0)
    window = {
        "api_key": OPEN311_API_KEY,
        "start_date": (now - timedelta(hours=1)).isoformat().replace("+00:00", "Z"),
        "end_date": (now + timedelta(hours=1)).isoformat().replace("+00:00", "Z"),
    }

    def ours():
        response = get(platform, "servicerequestupdates.json", **window)
        assert response.status_code == 200, f"{response.status_code}: {response.text[:300]}"
        return [u for u in valid("request_updates", response.json()) if u["service_request_id"] == new_id]

    updates = until(ours, "the accept is in servicerequestupdates.json")
    assert len({u["update_id"] for u in updates}) == len(updates), f"update ids are unique: {updates}"
    raw = get(platform, "servicerequestupdates.xml", **window)
    assert raw.status_code == 200, raw.text[:300]
    answer = xml_root(raw, "service_requests_updates")
    assert len(answer) and {child.tag for child in answer} == {"request_update"}, f"<request_update> elements: {raw.text[:300]}"
    assert new_id in {u.findtext("service_request_id") for u in answer}
