//! Prometheus metrics: request counts and latency by route and status, plus gauges filled at
//! scrape time (database pool usage, broker state) by registered collectors.

use actix_web::HttpResponse;
use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounterVec, IntGauge, IntGaugeVec, Opts, Registry,
    TextEncoder,
};
use std::sync::{Arc, RwLock};

use crate::db::Database;
use crate::error::ApiError;

type Collector = Box<dyn Fn(&Metrics) + Send + Sync>;

/// The metrics of one service instance (not global, so tests can run several in a process).
#[derive(Clone)]
pub struct Metrics {
    inner: Arc<Inner>,
}

struct Inner {
    registry: Registry,
    requests: IntCounterVec,
    duration: HistogramVec,
    pool: IntGaugeVec,
    collectors: RwLock<Vec<Collector>>,
}

impl Metrics {
    pub fn new(service: &str) -> anyhow::Result<Self> {
        let registry = Registry::new_custom(
            None,
            Some([("service".to_string(), service.to_string())].into()),
        )?;
        let requests = IntCounterVec::new(
            Opts::new(
                "http_requests_total",
                "HTTP requests answered, by route and status",
            ),
            &["method", "route", "status"],
        )?;
        let duration = HistogramVec::new(
            HistogramOpts::new(
                "http_request_duration_seconds",
                "HTTP request latency, by route and status",
            )
            .buckets(vec![
                0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
            ]),
            &["method", "route", "status"],
        )?;
        let pool = IntGaugeVec::new(
            Opts::new("db_pool_connections", "Database pool connections by state"),
            &["state"],
        )?;
        registry.register(Box::new(requests.clone()))?;
        registry.register(Box::new(duration.clone()))?;
        registry.register(Box::new(pool.clone()))?;
        Ok(Self {
            inner: Arc::new(Inner {
                registry,
                requests,
                duration,
                pool,
                collectors: RwLock::default(),
            }),
        })
    }

    /// The registry, for services that add their own metrics.
    pub fn registry(&self) -> &Registry {
        &self.inner.registry
    }

    /// A counter family of one label, registered here (a service's own counters, filled by a
    /// collector).
    pub fn counter_vec(
        &self,
        name: impl Into<String>,
        help: impl Into<String>,
        label: &str,
    ) -> anyhow::Result<IntCounterVec> {
        let counters = IntCounterVec::new(Opts::new(name, help), &[label])?;
        self.registry().register(Box::new(counters.clone()))?;
        Ok(counters)
    }

    /// A gauge, registered here (a service's own gauge, set by a collector).
    pub fn gauge(&self, name: &str, help: &str) -> anyhow::Result<IntGauge> {
        let gauge = IntGauge::new(name, help)?;
        self.registry().register(Box::new(gauge.clone()))?;
        Ok(gauge)
    }

    /// Runs `collector` before every scrape (to refresh gauges).
    pub fn add_collector(&self, collector: impl Fn(&Metrics) + Send + Sync + 'static) {
        if let Ok(mut list) = self.inner.collectors.write() {
            list.push(Box::new(collector));
        }
    }

    /// Reports the pool usage of `db` at every scrape.
    pub fn watch_pool(&self, db: Database) {
        self.add_collector(move |m| {
            let (busy, idle) = db.pool_usage();
            m.inner
                .pool
                .with_label_values(&["busy"])
                .set(i64::from(busy));
            m.inner
                .pool
                .with_label_values(&["idle"])
                .set(i64::from(idle));
        });
    }

    /// The text exposition of every metric.
    pub fn render(&self) -> anyhow::Result<String> {
        if let Ok(list) = self.inner.collectors.read() {
            for collect in list.iter() {
                collect(self);
            }
        }
        let mut buf = Vec::new();
        TextEncoder::new().encode(&self.inner.registry.gather(), &mut buf)?;
        Ok(String::from_utf8(buf)?)
    }

    /// Records one answered request; `route` is the matched template, never the raw path
    /// (which would let clients create unbounded label values).
    pub(crate) fn observe(&self, method: &str, route: &str, status: u16, seconds: f64) {
        let status = status.to_string();
        let labels = [method, route, status.as_str()];
        self.inner.requests.with_label_values(&labels).inc();
        self.inner
            .duration
            .with_label_values(&labels)
            .observe(seconds);
    }
}

/// `/metrics`: the text exposition.
pub(crate) async fn scrape(
    metrics: actix_web::web::Data<Metrics>,
) -> Result<HttpResponse, ApiError> {
    let text = metrics.render().map_err(ApiError::internal)?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4")
        .body(text))
}
