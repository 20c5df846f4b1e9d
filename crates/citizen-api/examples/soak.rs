//! The soak driver of `make soak` (scripts/soak-citizen.sh): a mix of citizens' reads and writes
//! against a running citizen-api, first as fast as 32 clients go (the mix's capacity on this
//! machine), then for `SOAK_MINUTES` at a fixed rate, half that capacity unless `SOAK_RPS` says
//! otherwise (an open loop: a slow answer does not slow what is sent). Every minute it prints
//! the requests, errors, p50 and p99, and the server's resident memory, open files and pool
//! connections (from `/proc/<SOAK_PID>` and `/metrics`); at the end it compares the first and
//! the last five minutes and exits 1 when any of them moved by more than 10 % or any request
//! failed.
//!
//! The mix, per 20 requests: 8 report lists, 6 report details, 2 vote pool summaries, 2 vote
//! places or revokes, 1 filing with a photo, 1 news list.
//!
//! Environment: `SOAK_BASE` (`http://127.0.0.1:PORT`), `SOAK_PID`, `SOAK_DEV_SECRET`,
//! `SOAK_MINUTES` (30), `SOAK_RPS` (0: half the measured capacity), `SOAK_CITIZENS` (50).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::multipart::{Form, Part};
use secrecy::SecretString;
use serde_json::{json, Value};
use service_kit::auth::{mint_dev_token, DevTokenRequest};
use uuid::Uuid;

/// Real image files, shared with the tests.
#[path = "../tests/units/media"]
mod media_images {
    #![allow(dead_code, unused_imports, clippy::unwrap_used, clippy::expect_used)] // test fixtures
    #[path = "heif_image.rs"]
    pub mod heif_image;
    #[path = "images.rs"]
    pub mod images;
}

/// The mix: one of 20 slots.
const MIX: [Kind; 20] = {
    use Kind::*;
    [
        List, Detail, List, Summary, List, Detail, Vote, List, Detail, File, //
        List, Detail, Summary, List, Detail, Vote, List, Detail, News, List,
    ]
};
/// How far apart the first and the last five minutes may be.
const DRIFT: f64 = 0.10;
const WINDOW_MINUTES: usize = 5;

#[derive(Clone, Copy, Debug)]
enum Kind {
    List,
    Detail,
    Summary,
    Vote,
    File,
    News,
}

struct Driver {
    http: reqwest::Client,
    api: String,
    citizens: Vec<Citizen>,
    reports: Mutex<Vec<Uuid>>,
    photo: Vec<u8>,
}

struct Citizen {
    token: String,
    /// The targets of the tokens it holds, oldest first, as its acknowledged answers say.
    held: Mutex<Vec<Uuid>>,
}

impl Driver {
    fn pick_report(&self, n: usize) -> Uuid {
        let reports = self.reports.lock().unwrap_or_else(|p| p.into_inner());
        reports[n % reports.len()]
    }

    /// One request of `kind`; whether it was answered 2xx.
    async fn send(&self, kind: Kind, n: usize) -> bool {
        let citizen = &self.citizens[n % self.citizens.len()];
        let request = match kind {
            Kind::List => self.http.get(format!("{}/reports?limit=20", self.api)),
            Kind::Detail => self
                .http
                .get(format!("{}/reports/{}", self.api, self.pick_report(n))),
            Kind::Summary => self
                .http
                .get(format!("{}/me/vote-tokens-summary", self.api))
                .bearer_auth(&citizen.token),
            Kind::News => self.http.get(format!("{}/news?limit=20", self.api)),
            Kind::Vote => return self.vote(citizen, n).await,
            Kind::File => self
                .http
                .post(format!("{}/reports", self.api))
                .bearer_auth(&citizen.token)
                .multipart(self.filing(n)),
        };
        let Ok(response) = request.send().await else {
            return false;
        };
        let ok = response.status().is_success();
        if let (Kind::File, true) = (kind, ok) {
            if let Ok(body) = response.json::<Value>().await {
                if let Some(id) = body["id"].as_str().and_then(|s| s.parse().ok()) {
                    self.reports
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push(id);
                }
            }
        } else {
            let _ = response.bytes().await;
        }
        ok
    }

    fn filing(&self, n: usize) -> Form {
        Form::new()
            .text("title", format!("Soak report {n}"))
            .text("description", "Filed by the soak driver")
            .part(
                "media",
                Part::bytes(self.photo.clone())
                    .file_name("photo.jpg")
                    .mime_str("image/jpeg")
                    .unwrap_or_else(|_| Part::bytes(Vec::new())),
            )
    }

    /// Places a token on a report while it holds fewer than five, else revokes its oldest; the
    /// held targets are taken before the request is sent, so two of its requests at once never
    /// revoke the same token.
    async fn vote(&self, citizen: &Citizen, n: usize) -> bool {
        let revoke = {
            let mut held = citizen.held.lock().unwrap_or_else(|p| p.into_inner());
            (held.len() >= 5).then(|| held.remove(0))
        };
        let (target, path, method) = match revoke {
            Some(target) => (target, "me/vote-token-revoke", reqwest::Method::PATCH),
            None => (
                self.pick_report(n / 7),
                "me/vote-tokens",
                reqwest::Method::POST,
            ),
        };
        let answer = self
            .http
            .request(method, format!("{}/{path}", self.api))
            .bearer_auth(&citizen.token)
            .json(&json!({"target": target.to_string(), "count": 1}))
            .send()
            .await;
        let Ok(response) = answer else {
            return false;
        };
        let status = response.status().as_u16();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        let mut held = citizen.held.lock().unwrap_or_else(|p| p.into_inner());
        match (revoke, status) {
            (None, 200) => {
                held.push(target);
                true
            }
            (Some(_), 200) => body["revoked_count"] == 1,
            (Some(target), _) => {
                held.insert(0, target);
                false
            }
            (None, _) => false,
        }
    }
}

/// What a minute of the soak saw.
#[derive(Default)]
struct Minute {
    latencies: Vec<Duration>,
    errors: usize,
    rss_kib: Vec<u64>,
    fds: Vec<usize>,
    pool: Vec<f64>,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at]
}

fn rss_kib(pid: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

fn open_files(pid: &str) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count())
}

async fn pool_connections(http: &reqwest::Client, base: &str) -> f64 {
    let Ok(response) = http.get(format!("{base}/metrics")).send().await else {
        return 0.0;
    };
    let text = response.text().await.unwrap_or_default();
    text.lines()
        .filter(|l| l.starts_with("db_pool_connections{"))
        .filter_map(|l| l.rsplit(' ').next().and_then(|v| v.parse::<f64>().ok()))
        .sum()
}

fn env(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_owned())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let base = env("SOAK_BASE", "http://127.0.0.1:8080");
    let pid = env("SOAK_PID", "0");
    let minutes: usize = env("SOAK_MINUTES", "30").parse()?;
    let wanted_rps: f64 = env("SOAK_RPS", "0").parse()?;
    let citizens: usize = env("SOAK_CITIZENS", "50").parse()?;
    let mut settings: citizen_api::Settings = service_kit::settings::load_from_pairs(&[])?;
    settings.auth.dev_secret = Some(SecretString::from(env("SOAK_DEV_SECRET", "")));
    let token = |subject: String| {
        mint_dev_token(
            &settings.auth,
            &DevTokenRequest {
                subject,
                scopes: Vec::new(),
                roles: Vec::new(),
                client_id: None,
                email: None,
                locale: None,
                ttl: Duration::from_secs(3600 * 24),
            },
        )
    };
    let driver = Arc::new(Driver {
        http: reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .pool_max_idle_per_host(64)
            .build()?,
        api: format!("{base}/api/v1"),
        citizens: (0..citizens)
            .map(|n| {
                Ok(Citizen {
                    token: token(format!("soak-citizen-{n}"))?,
                    held: Mutex::new(Vec::new()),
                })
            })
            .collect::<anyhow::Result<_>>()?,
        reports: Mutex::new(Vec::new()),
        photo: media_images::images::jpeg().0,
    });
    // Reports to read and vote on.
    for n in 0..200 {
        if !driver.send(Kind::File, n).await {
            anyhow::bail!("seeding report {n} failed");
        }
    }

    // The mix's capacity: 32 clients as fast as they go, 30 s.
    let capacity = {
        let until = Instant::now() + Duration::from_secs(30);
        let done = Arc::new(Mutex::new(0usize));
        let clients: Vec<_> = (0..32)
            .map(|c| {
                let (driver, done) = (driver.clone(), done.clone());
                tokio::spawn(async move {
                    let mut n = c;
                    while Instant::now() < until {
                        driver.send(MIX[n % MIX.len()], n).await;
                        n += 32;
                        *done.lock().unwrap_or_else(|p| p.into_inner()) += 1;
                    }
                })
            })
            .collect();
        for client in clients {
            client.await?;
        }
        let done = *done.lock().unwrap_or_else(|p| p.into_inner());
        done as f64 / 30.0
    };
    let rps = if wanted_rps > 0.0 {
        wanted_rps
    } else {
        capacity / 2.0
    };
    println!(
        "capacity of the mix (32 clients, 30 s): {capacity:.0} requests/s; soak at {rps:.0} requests/s for {minutes} min"
    );

    // The soak: an open loop at `rps`.
    let stats: Arc<Mutex<BTreeMap<usize, Minute>>> = Arc::default();
    let started = Instant::now();
    let until = started + Duration::from_secs(60 * minutes as u64);
    let sampler = {
        let (stats, http, base, pid) = (stats.clone(), driver.http.clone(), base.clone(), pid);
        tokio::spawn(async move {
            while Instant::now() < until {
                let minute = started.elapsed().as_secs() as usize / 60;
                let pool = pool_connections(&http, &base).await;
                {
                    let mut all = stats.lock().unwrap_or_else(|p| p.into_inner());
                    let m = all.entry(minute).or_default();
                    m.rss_kib.push(rss_kib(&pid));
                    m.fds.push(open_files(&pid));
                    m.pool.push(pool);
                }
                tokio::time::sleep(Duration::from_secs(10)).await;
            }
        })
    };
    let mut ticks = tokio::time::interval(Duration::from_secs_f64(1.0 / rps));
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    let mut n = 0usize;
    let in_flight = Arc::new(tokio::sync::Semaphore::new(1024));
    while Instant::now() < until {
        ticks.tick().await;
        let (driver, stats) = (driver.clone(), stats.clone());
        let Ok(permit) = in_flight.clone().try_acquire_owned() else {
            // 1 024 requests outstanding: the service is not keeping up; count it as an error.
            let minute = started.elapsed().as_secs() as usize / 60;
            stats
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .entry(minute)
                .or_default()
                .errors += 1;
            continue;
        };
        let kind = MIX[n % MIX.len()];
        tokio::spawn(async move {
            let sent = Instant::now();
            let ok = driver.send(kind, n).await;
            let took = sent.elapsed();
            let minute = sent.duration_since(started).as_secs() as usize / 60;
            let mut all = stats.lock().unwrap_or_else(|p| p.into_inner());
            let m = all.entry(minute).or_default();
            m.latencies.push(took);
            if !ok {
                m.errors += 1;
            }
            drop(permit);
        });
        n += 1;
    }
    // Let the last requests finish.
    let _ = in_flight.acquire_many(1024).await?;
    sampler.await?;

    let mut all = std::mem::take(&mut *stats.lock().unwrap_or_else(|p| p.into_inner()));
    all.retain(|&minute, _| minute < minutes);
    println!("| minute | requests | errors | p50 ms | p99 ms | RSS MiB | open files | pool connections |");
    println!("|---|---|---|---|---|---|---|---|");
    let mut errors = 0;
    for (minute, m) in all.iter_mut() {
        m.latencies.sort();
        errors += m.errors;
        println!(
            "| {} | {} | {} | {:.1} | {:.1} | {:.1} | {} | {:.0} |",
            minute + 1,
            m.latencies.len(),
            m.errors,
            percentile(&m.latencies, 0.50).as_secs_f64() * 1e3,
            percentile(&m.latencies, 0.99).as_secs_f64() * 1e3,
            m.rss_kib.iter().max().copied().unwrap_or(0) as f64 / 1024.0,
            m.fds.iter().max().copied().unwrap_or(0),
            m.pool.iter().copied().fold(0.0, f64::max),
        );
    }
    let window = |range: std::ops::Range<usize>| {
        let ms: Vec<&Minute> = range.filter_map(|i| all.get(&i)).collect();
        let mut latencies: Vec<Duration> = ms.iter().flat_map(|m| m.latencies.clone()).collect();
        latencies.sort();
        let max_of = |f: &dyn Fn(&Minute) -> f64| ms.iter().map(|m| f(m)).fold(0.0, f64::max);
        [
            ("p99 ms", percentile(&latencies, 0.99).as_secs_f64() * 1e3),
            (
                "RSS MiB",
                max_of(&|m| m.rss_kib.iter().max().copied().unwrap_or(0) as f64 / 1024.0),
            ),
            (
                "open files",
                max_of(&|m| m.fds.iter().max().copied().unwrap_or(0) as f64),
            ),
            (
                "pool connections",
                max_of(&|m| m.pool.iter().copied().fold(0.0, f64::max)),
            ),
        ]
    };
    let first = window(0..WINDOW_MINUTES.min(minutes));
    let last = window(minutes.saturating_sub(WINDOW_MINUTES)..minutes);
    let mut flat = errors == 0;
    println!();
    println!("| first {WINDOW_MINUTES} min vs last {WINDOW_MINUTES} min | first | last | change |");
    println!("|---|---|---|---|");
    for ((name, a), (_, b)) in first.iter().zip(last.iter()) {
        // Growth is what a soak looks for (a leak, a slowing); a figure that fell is flat.
        let change = if *a > 0.0 { (b - a) / a } else { 0.0 };
        let within = change <= DRIFT;
        flat &= within;
        println!(
            "| {name} | {a:.1} | {b:.1} | {:+.1} %{} |",
            change * 100.0,
            if within { "" } else { " (over 10 %)" }
        );
    }
    println!();
    println!(
        "errors: {errors}; {}",
        if flat {
            "flat: every figure of the last five minutes within 10 % of the first five"
        } else {
            "NOT flat"
        }
    );
    if flat {
        Ok(())
    } else {
        std::process::exit(1)
    }
}
