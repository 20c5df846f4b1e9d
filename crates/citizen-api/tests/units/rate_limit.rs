//! The anonymous rate limit with an injected clock, and the client address behind proxies.

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use actix_web::test::TestRequest;
use citizen_api::rate_limit::{client_address, RateLimitSettings, RateLimiter};
use serde_json::json;
use service_kit::ApiError;

const HOUR: Duration = Duration::from_secs(3600);

/// 10 per hour (one every 360 s), bursts of 3.
fn limiter() -> RateLimiter {
    RateLimiter::new(&RateLimitSettings::default()).unwrap()
}

fn ip(text: &str) -> IpAddr {
    text.parse().unwrap()
}

/// The `Retry-After` of a refusal, checking the rest of the error.
fn retry_after(result: Result<(), ApiError>) -> u64 {
    let err = result.unwrap_err();
    assert_eq!(err.status().as_u16(), 429);
    assert_eq!(err.name(), "TOO_MANY_REQUESTS");
    let response = err.to_response(i18n::Locale::En);
    let value = response
        .headers()
        .get("retry-after")
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let seconds: u64 = value.parse().unwrap();
    assert_eq!(err.message().unwrap().get("seconds"), Some(value.as_str()));
    seconds
}

#[test]
fn a_burst_passes_then_the_next_waits_exactly_one_interval() {
    let limiter = limiter();
    let t0 = Instant::now();
    let client = ip("198.51.100.1");
    for _ in 0..3 {
        limiter.check(client, t0).unwrap();
    }
    let refused = limiter.check(client, t0).unwrap_err();
    assert_eq!(
        refused.userinfo(i18n::Locale::Cs),
        "Z vaší adresy přišlo příliš mnoho podnětů; zkuste to znovu za 360 sekund."
    );
    assert_eq!(retry_after(limiter.check(client, t0)), 360);
    // Refusals are not counted: the wait does not grow.
    assert_eq!(retry_after(limiter.check(client, t0)), 360);
    let later = t0 + Duration::from_millis(100_500);
    assert_eq!(retry_after(limiter.check(client, later)), 260); // 259.5 rounded up
    let almost = t0 + Duration::from_millis(359_999);
    assert_eq!(retry_after(limiter.check(client, almost)), 1); // never 0
    limiter
        .check(client, t0 + Duration::from_secs(360))
        .unwrap();
    assert_eq!(
        retry_after(limiter.check(client, t0 + Duration::from_secs(360))),
        360
    );
}

#[test]
fn the_sustained_rate_is_the_hourly_one_and_a_quiet_client_refills() {
    let limiter = limiter();
    let t0 = Instant::now();
    let client = ip("198.51.100.2");
    let mut passed = 0;
    // One attempt a minute for two hours: the burst, then one every 6 minutes.
    for minute in 0..120 {
        if limiter
            .check(client, t0 + Duration::from_secs(60 * minute))
            .is_ok()
        {
            passed += 1;
        }
    }
    assert_eq!(passed, 3 + 119 / 6);
    // After a quiet burst-length period the whole burst is back.
    let rested = t0 + 3 * HOUR;
    for _ in 0..3 {
        limiter.check(client, rested).unwrap();
    }
    assert!(limiter.check(client, rested).is_err());
}

#[test]
fn addresses_are_independent_and_ipv6_counts_per_64() {
    let limiter = limiter();
    let t0 = Instant::now();
    for _ in 0..3 {
        limiter.check(ip("192.0.2.1"), t0).unwrap();
    }
    assert!(limiter.check(ip("192.0.2.1"), t0).is_err());
    limiter.check(ip("192.0.2.2"), t0).unwrap();
    // The same IPv4 address written as IPv4-mapped IPv6 is the same client.
    assert!(limiter.check(ip("::ffff:192.0.2.1"), t0).is_err());
    // One /64, different interface ids: one client.
    limiter.check(ip("2001:db8:1:2::1"), t0).unwrap();
    limiter.check(ip("2001:db8:1:2:ffff::9"), t0).unwrap();
    limiter
        .check(ip("2001:db8:1:2:abcd:1234:5678:9abc"), t0)
        .unwrap();
    assert!(limiter.check(ip("2001:db8:1:2::77"), t0).is_err());
    // The neighbouring /64 is another client.
    limiter.check(ip("2001:db8:1:3::1"), t0).unwrap();
}

#[test]
fn zero_per_hour_disables_the_limit() {
    let settings = RateLimitSettings {
        anonymous_reports_per_hour: 0,
        ..RateLimitSettings::default()
    };
    let limiter = RateLimiter::new(&settings).unwrap();
    let t0 = Instant::now();
    for _ in 0..1000 {
        limiter.check(ip("192.0.2.9"), t0).unwrap();
    }
    assert_eq!(limiter.tracked_clients(), 0);
}

#[test]
fn memory_stays_bounded_under_many_addresses() {
    let settings = RateLimitSettings {
        max_tracked_clients: 1000,
        ..RateLimitSettings::default()
    };
    let limiter = RateLimiter::new(&settings).unwrap();
    let t0 = Instant::now();
    let heavy = ip("203.0.113.99");
    for _ in 0..3 {
        limiter.check(heavy, t0).unwrap();
    }
    for n in 0..100_000u32 {
        let addr = IpAddr::V4(std::net::Ipv4Addr::from(0x0A00_0000 + n));
        limiter
            .check(addr, t0 + Duration::from_millis(u64::from(n)))
            .unwrap();
        assert!(limiter.tracked_clients() <= 1000);
    }
    // When all are active, the ones closest to refilled go first: a limited client stays
    // limited through a flood.
    let limiter = RateLimiter::new(&settings).unwrap();
    for _ in 0..3 {
        limiter.check(heavy, t0).unwrap();
    }
    for n in 0..999u32 {
        let addr = IpAddr::V4(std::net::Ipv4Addr::from(0x0B00_0000 + n));
        limiter.check(addr, t0).unwrap();
    }
    // Full now; the heavy client (its tat is furthest ahead) survives an eviction round.
    limiter.check(ip("192.0.2.200"), t0).unwrap();
    assert_eq!(limiter.tracked_clients(), 901);
    assert!(limiter.check(heavy, t0).is_err());
    // Clients whose bucket has refilled carry no information: they are dropped first, all of
    // them, before any active one.
    while limiter.tracked_clients() < 1000 {
        let n = limiter.tracked_clients() as u32;
        limiter
            .check(IpAddr::V4(std::net::Ipv4Addr::from(0x0C00_0000 + n)), t0)
            .unwrap();
    }
    limiter.check(ip("192.0.2.201"), t0 + 2 * HOUR).unwrap();
    assert_eq!(limiter.tracked_clients(), 1, "only the newest is active");
}

#[test]
fn settings_defaults_and_refusals() {
    let s: RateLimitSettings = serde_json::from_value(json!({})).unwrap();
    assert_eq!(
        (
            s.anonymous_reports_per_hour,
            s.burst,
            s.trusted_proxy_hops,
            s.max_tracked_clients
        ),
        (10, 3, 0, 100_000)
    );
    assert!(serde_json::from_value::<RateLimitSettings>(json!({"brust": 2})).is_err());
    let zero_burst = RateLimitSettings {
        burst: 0,
        ..s.clone()
    };
    assert!(RateLimiter::new(&zero_burst)
        .unwrap_err()
        .to_string()
        .contains("rate_limit.burst"));
}

fn request(peer: &str, forwarded: &[&str]) -> actix_web::HttpRequest {
    let mut req = TestRequest::default().peer_addr(peer.parse::<SocketAddr>().unwrap());
    for value in forwarded {
        req = req.append_header(("x-forwarded-for", *value));
    }
    req.to_http_request()
}

#[test]
fn without_trusted_proxies_the_peer_is_the_client_whatever_the_headers_say() {
    let req = request("198.51.100.7:5555", &["1.2.3.4"]);
    assert_eq!(client_address(&req, 0), Some(ip("198.51.100.7")));
}

#[test]
fn behind_proxies_the_nth_forwarded_address_from_the_right_is_the_client() {
    // The client claims 6.6.6.6; the ingress appends what it saw.
    let req = request("10.0.0.5:80", &["6.6.6.6, 203.0.113.50"]);
    assert_eq!(client_address(&req, 1), Some(ip("203.0.113.50")));
    // Two proxies (CDN, then ingress), across two header lines, with ports and IPv6.
    let req = request(
        "10.0.0.5:80",
        &["6.6.6.6, [2001:db8::7]:443", "198.51.100.1"],
    );
    assert_eq!(client_address(&req, 2), Some(ip("2001:db8::7")));
    assert_eq!(client_address(&req, 1), Some(ip("198.51.100.1")));
    let req = request("10.0.0.5:80", &["203.0.113.9:61000"]);
    assert_eq!(client_address(&req, 1), Some(ip("203.0.113.9")));
}

#[test]
fn malformed_or_spoofed_forwarded_headers_never_choose_the_key() {
    // Garbage to the left of the trusted entries is ignored.
    let req = request("10.0.0.5:80", &["not-an-ip, , 999.1.1.1, 203.0.113.50"]);
    assert_eq!(client_address(&req, 1), Some(ip("203.0.113.50")));
    // Non-ASCII text of the client does not hide the entry our proxy appended.
    let req = TestRequest::default()
        .peer_addr("10.0.0.5:80".parse().unwrap())
        .insert_header((
            "x-forwarded-for",
            actix_web::http::header::HeaderValue::from_bytes(b"\xff\xfe, 203.0.113.51").unwrap(),
        ))
        .to_http_request();
    assert_eq!(client_address(&req, 1), Some(ip("203.0.113.51")));
    // Fewer entries than proxies: the request did not come through them all; the peer counts.
    let req = request("192.0.2.33:80", &["203.0.113.50"]);
    assert_eq!(client_address(&req, 2), Some(ip("192.0.2.33")));
    let req = request("192.0.2.33:80", &[]);
    assert_eq!(client_address(&req, 1), Some(ip("192.0.2.33")));
    // A trusted place that is not an address: no address.
    let req = request("10.0.0.5:80", &["203.0.113.50, unknown"]);
    assert_eq!(client_address(&req, 1), None);
    // No peer at all.
    let req = TestRequest::default().to_http_request();
    assert_eq!(client_address(&req, 0), None);
}

#[test]
fn check_request_counts_unknown_clients_under_one_key() {
    let settings = RateLimitSettings {
        trusted_proxy_hops: 1,
        ..RateLimitSettings::default()
    };
    let limiter = RateLimiter::new(&settings).unwrap();
    let t0 = Instant::now();
    let req = request("10.0.0.5:80", &["203.0.113.50"]);
    for _ in 0..3 {
        limiter.check_request(&req, t0).unwrap();
    }
    assert!(limiter.check_request(&req, t0).is_err());
    let other = request("10.0.0.5:80", &["203.0.113.51"]);
    limiter.check_request(&other, t0).unwrap();
    let unknown = request("10.0.0.5:80", &["bogus"]);
    for _ in 0..3 {
        limiter.check_request(&unknown, t0).unwrap();
    }
    assert!(limiter
        .check_request(&TestRequest::default().to_http_request(), t0)
        .is_err());
}
