//! The rate limit of anonymous filings, per client address.
//!
//! A GCRA (a token bucket kept as one "theoretical arrival time" per client): a client may file
//! `burst` reports at once and then one every `3600 / anonymous_reports_per_hour` seconds; a
//! refused filing is 429 `TOO_MANY_REQUESTS` with `Retry-After` (whole seconds, rounded up).
//! The time is passed in (`now`), so tests drive it.
//!
//! - **Key:** an IPv4 address, or the /64 prefix of an IPv6 address (one host or home network
//!   gets a whole /64, so per-address keys would let it rotate through 2^64 addresses); an
//!   IPv4-mapped IPv6 address counts as its IPv4 address.
//! - **Memory:** at most `max_tracked_clients` keys. A key whose bucket is full again carries no
//!   information and is dropped first; if all keys are still active, the tenth closest to
//!   refilled are evicted, so an attacker with many addresses can only make us forget the
//!   mildest limits, never grow memory.
//! - **Replicas:** each replica counts on its own, in memory; behind a round-robin ingress a
//!   client may reach up to R × the limit with R replicas. Acceptable here: the limit is a brake
//!   on floods next to the CAPTCHA, not an exact quota, and a shared counter (a database row per
//!   filing) would put a write on every anonymous request. Divide the configured rate by R, or
//!   make the ingress keep a client on one replica, where it must be tighter.
//! - **Address:** see [`client_address`]: the socket peer, or with `trusted_proxy_hops = N` the
//!   N-th address from the right of `X-Forwarded-For`.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use actix_web::http::header::{HeaderValue, RETRY_AFTER};
use actix_web::HttpRequest;
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use serde::Deserialize;
use service_kit::ApiError;

/// `rate_limit.*`: the limit of anonymous filings per client address.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateLimitSettings {
    /// Sustained rate of anonymous reports one client address may file (0 = no limit).
    #[serde(default = "default_per_hour")]
    pub anonymous_reports_per_hour: u32,
    /// How many reports one address may file at once before the hourly rate applies (≥ 1).
    #[serde(default = "default_burst")]
    pub burst: u32,
    /// Proxies in front of the service that append to `X-Forwarded-For` (the ingress: 1).
    /// 0: the socket peer is the client. N: the N-th address from the right of
    /// `X-Forwarded-For` is. Never more than there really are: the addresses further left are
    /// written by the client and would let it pick its own key.
    #[serde(default)]
    pub trusted_proxy_hops: usize,
    /// Most client addresses tracked at once (memory bound; about 100 bytes each).
    #[serde(default = "default_max_tracked_clients")]
    pub max_tracked_clients: usize,
}

const fn default_per_hour() -> u32 {
    10
}

const fn default_burst() -> u32 {
    3
}

const fn default_max_tracked_clients() -> usize {
    100_000
}

impl Default for RateLimitSettings {
    fn default() -> Self {
        Self {
            anonymous_reports_per_hour: default_per_hour(),
            burst: default_burst(),
            trusted_proxy_hops: 0,
            max_tracked_clients: default_max_tracked_clients(),
        }
    }
}

/// What a client is counted under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum ClientKey {
    V4(u32),
    /// The upper 64 bits.
    V6(u64),
    /// A named client (an Open311 integrator's key), by its name's hash.
    Named(u64),
}

impl ClientKey {
    fn of(ip: IpAddr) -> Self {
        match ip {
            IpAddr::V4(v4) => Self::V4(u32::from(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Self::V4(u32::from(v4)),
                None => Self::V6((u128::from(v6) >> 64) as u64),
            },
        }
    }
}

/// The key a client is known by, as text (`v4:<address>`, `v6:<upper 64 bits in hex>`, or
/// `unknown` without an address): what identifies an anonymous client elsewhere too (its
/// `Idempotency-Key` scope).
pub fn client_key(client: Option<IpAddr>) -> String {
    match client.map(ClientKey::of) {
        Some(ClientKey::V4(v4)) => format!("v4:{}", std::net::Ipv4Addr::from(v4)),
        Some(ClientKey::V6(prefix)) => format!("v6:{prefix:016x}"),
        Some(ClientKey::Named(hash)) => format!("named:{hash:016x}"),
        None => "unknown".to_owned(),
    }
}

/// The per-address limiter of one replica.
#[derive(Debug)]
pub struct RateLimiter {
    /// Time between two filings at the sustained rate; `None`: no limit.
    interval: Option<Duration>,
    /// `burst × interval`: how far ahead of `now` a client's arrival time may run.
    window: Duration,
    max_clients: usize,
    trusted_proxy_hops: usize,
    /// Theoretical arrival time per client.
    clients: Mutex<HashMap<ClientKey, Instant>>,
}

impl RateLimiter {
    /// A limiter for `settings`; refuses `burst = 0` and `max_tracked_clients = 0` while
    /// limiting.
    pub fn new(settings: &RateLimitSettings) -> anyhow::Result<Self> {
        let per_hour = settings.anonymous_reports_per_hour;
        if per_hour > 0 && settings.burst == 0 {
            anyhow::bail!("rate_limit.burst must be at least 1");
        }
        if per_hour > 0 && settings.max_tracked_clients == 0 {
            anyhow::bail!("rate_limit.max_tracked_clients must be at least 1");
        }
        let interval = (per_hour > 0).then(|| Duration::from_secs(3600) / per_hour);
        Ok(Self {
            interval,
            window: interval.unwrap_or_default() * settings.burst,
            max_clients: settings.max_tracked_clients,
            trusted_proxy_hops: settings.trusted_proxy_hops,
            clients: Mutex::new(HashMap::new()),
        })
    }

    /// Counts one filing of `client` at `now`; 429 with `Retry-After` when over the limit (the
    /// refused filing is not counted).
    pub fn check(&self, client: IpAddr, now: Instant) -> Result<(), ApiError> {
        match self.wait(ClientKey::of(client), now) {
            None => Ok(()),
            Some(seconds) => Err(ApiError::new(
                ErrorCode::TooManyRequests,
                Message::new("rate-limit-reports").arg("seconds", seconds),
            )
            .with_header(RETRY_AFTER, HeaderValue::from(seconds))),
        }
    }

    /// Counts one filing of the client known as `name` (an Open311 integrator) at `now`;
    /// `Some(seconds)` to wait when over the limit (the refused filing is not counted).
    pub fn check_named(&self, name: &str, now: Instant) -> Option<u64> {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        name.hash(&mut hasher);
        self.wait(ClientKey::Named(hasher.finish()), now)
    }

    /// Counts one filing of `key` at `now`, or the whole seconds to wait (at least 1).
    fn wait(&self, key: ClientKey, now: Instant) -> Option<u64> {
        let interval = self.interval?;
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        let tat = clients.get(&key).copied().unwrap_or(now).max(now);
        let next = tat + interval;
        let allowed_from = next.checked_sub(self.window).unwrap_or(now);
        if allowed_from > now {
            let wait = allowed_from - now;
            return Some((wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1));
        }
        if !clients.contains_key(&key) && clients.len() >= self.max_clients {
            make_room(&mut clients, now, self.max_clients);
        }
        clients.insert(key, next);
        None
    }

    /// [`Self::check`] for the client of `req` (see [`client_address`]); a request whose
    /// address cannot be told is counted under one shared key.
    pub fn check_request(&self, req: &HttpRequest, now: Instant) -> Result<(), ApiError> {
        let client = client_address(req, self.trusted_proxy_hops)
            .unwrap_or(IpAddr::V6(Ipv6Addr::UNSPECIFIED));
        self.check(client, now)
    }

    /// Client addresses tracked now.
    pub fn tracked_clients(&self) -> usize {
        self.clients.lock().map_or(0, |clients| clients.len())
    }
}

/// Frees at least one place: drops the clients whose bucket is full again (arrival time not
/// after `now`), else the tenth of them closest to that.
fn make_room(clients: &mut HashMap<ClientKey, Instant>, now: Instant, max: usize) {
    clients.retain(|_, tat| *tat > now);
    if clients.len() < max {
        return;
    }
    let evict = (max / 10).max(1);
    let mut times: Vec<Instant> = clients.values().copied().collect();
    let (_, &mut cutoff, _) = times.select_nth_unstable(evict - 1);
    let mut left = evict;
    clients.retain(|_, tat| {
        if left > 0 && *tat <= cutoff {
            left -= 1;
            false
        } else {
            true
        }
    });
}

/// The client's address: the socket peer when `trusted_proxy_hops` is 0; else the
/// `trusted_proxy_hops`-th address from the right of `X-Forwarded-For` (every header line,
/// in order), the one our outermost proxy saw. Each proxy appends the address it received the
/// request from, so only the rightmost N entries were written by our proxies; anything
/// further left is the client's own text and is never used. A request with fewer entries did
/// not come through all proxies: its socket peer is used. `None` when the entry at that place
/// is not an address (our proxies never write that; it means a misconfiguration), or without
/// a peer address.
pub fn client_address(req: &HttpRequest, trusted_proxy_hops: usize) -> Option<IpAddr> {
    let peer = req.peer_addr().map(|addr| addr.ip());
    if trusted_proxy_hops == 0 {
        return peer;
    }
    // Lossy, so that a client's non-ASCII text cannot hide the entries our proxies appended.
    let lines: Vec<String> = req
        .headers()
        .get_all("x-forwarded-for")
        .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
        .collect();
    let entries: Vec<&str> = lines
        .iter()
        .flat_map(|line| line.split(','))
        .map(str::trim)
        .collect();
    match entries.len().checked_sub(trusted_proxy_hops) {
        Some(index) => parse_entry(entries[index]),
        None => peer,
    }
}

/// An `X-Forwarded-For` entry: an address, optionally with a port (`1.2.3.4:80`,
/// `[2001:db8::1]:80`).
fn parse_entry(entry: &str) -> Option<IpAddr> {
    entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|addr| addr.ip()))
}
