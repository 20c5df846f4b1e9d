//! The list index's readiness check waits for the first load and never runs it: a check ends at
//! its time-out (2 s) while a large city's load goes on, so a check that ran the load itself
//! would cancel it and start it again from nothing at the next check. Here the load's read of
//! every issue is held at a gate while a check is polled and dropped (as its time-out drops
//! it); once the gate opens, the next check is ready and every issue was read from position 0
//! once.
//!
//! A page waits for a feed read that started after it arrived, run on the index's own thread:
//! a page that arrives while a read is under way is not answered from that read, but from the
//! next, which holds what was committed in between.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use citizen_api::list_index::{IndexRow, ListIndex};
use citizen_api::store::{
    DetailKey, FeedMark, Instant, IssueRow, IssueSink, ListPage, ListRead, ListRow, NewReport,
    Report, ReportDetail, ReportFilter, ReportStore, ReportWithIssues, StoreResult, TimelineData,
    VoteSink,
};
use domain::geo::NearestOrder;
use domain::limits::Page;
use futures::FutureExt;
use service_kit::clock::Clock;
use test_support::on_both_backends;
use tokio::sync::watch;
use uuid::Uuid;

use crate::helpers::{Filing, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    a_check_that_times_out_leaves_the_load_running,
    a_page_that_arrives_during_a_read_waits_for_the_next,
    a_read_that_panics_leaves_the_page_to_the_database,
);

/// The app's report store, whose reads of every issue (from position 0) wait for `open` and
/// are counted; its later feed reads are counted in `entered` once their statement has run,
/// and each then waits for `feed_open`.
struct Held {
    store: Arc<dyn ReportStore>,
    open: watch::Receiver<bool>,
    reads_from_zero: AtomicUsize,
    feed_open: watch::Receiver<bool>,
    entered: watch::Sender<usize>,
    /// The next later feed read panics (as a bug in it would).
    panic_next: AtomicBool,
}

impl Held {
    fn new(store: Arc<dyn ReportStore>, open: watch::Receiver<bool>) -> Self {
        Self {
            store,
            open,
            reads_from_zero: AtomicUsize::new(0),
            feed_open: watch::channel(true).1,
            entered: watch::Sender::new(0),
            panic_next: AtomicBool::new(false),
        }
    }
}

#[async_trait]
impl ReportStore for Held {
    async fn file_report(&self, new: &NewReport, now: Instant) -> StoreResult<Option<Report>> {
        self.store.file_report(new, now).await
    }
    async fn report(&self, id: Uuid) -> StoreResult<Option<ReportWithIssues>> {
        self.store.report(id).await
    }
    async fn report_detail(&self, id: Uuid, now: Instant) -> StoreResult<Option<ReportDetail>> {
        self.store.report_detail(id, now).await
    }
    async fn report_detail_key(
        &self,
        id: Uuid,
        now: Instant,
        with_author: bool,
    ) -> StoreResult<Option<DetailKey>> {
        self.store.report_detail_key(id, now, with_author).await
    }
    async fn public_reports(
        &self,
        filter: &ReportFilter,
        now: Instant,
        read: ListRead,
    ) -> StoreResult<ListPage<ListRow>> {
        self.store.public_reports(filter, now, read).await
    }
    async fn public_rows(&self, issue_ids: &[Uuid]) -> StoreResult<Vec<IssueRow>> {
        self.store.public_rows(issue_ids).await
    }
    async fn issue_changes_each(
        &self,
        since: i64,
        each: &mut IssueSink<'_>,
    ) -> StoreResult<Option<FeedMark>> {
        if since == 0 {
            self.reads_from_zero.fetch_add(1, Ordering::SeqCst);
            let mut open = self.open.clone();
            // The sender lives as long as the test.
            let _ = open.wait_for(|open| *open).await;
            return self.store.issue_changes_each(since, each).await;
        }
        let read = self.store.issue_changes_each(since, each).await;
        self.entered.send_modify(|n| *n += 1);
        if self.panic_next.swap(false, Ordering::SeqCst) {
            panic!("a bug in a feed read");
        }
        let mut open = self.feed_open.clone();
        let _ = open.wait_for(|open| *open).await;
        read
    }
    fn nearest_order(&self) -> NearestOrder {
        self.store.nearest_order()
    }
    async fn vote_changes_each(
        &self,
        since: i64,
        now: Instant,
        each: &mut VoteSink<'_>,
    ) -> StoreResult<i64> {
        self.store.vote_changes_each(since, now, each).await
    }
    async fn own_reports(
        &self,
        author: &str,
        filter: &ReportFilter,
        now: Instant,
    ) -> StoreResult<ListPage<ReportWithIssues>> {
        self.store.own_reports(author, filter, now).await
    }
    async fn timeline(&self, report_id: Uuid) -> StoreResult<Option<TimelineData>> {
        self.store.timeline(report_id).await
    }
    async fn set_explicit(&self, report_id: Uuid, explicit: bool) -> StoreResult<bool> {
        self.store.set_explicit(report_id, explicit).await
    }
}

async fn a_check_that_times_out_leaves_the_load_running(app: TestApp) {
    app.file(Filing::new("Lampa", 1)).await;
    let (gate, open) = watch::channel(false);
    let held = Arc::new(Held::new(app.stores.reports.clone(), open));
    let index = ListIndex::new(held.clone(), 1_000, app.clock.clone()).expect("an index");
    let check = index.readiness();
    // The first check starts the load, which waits at the gate: the check is not ready, and
    // is dropped as its time-out would drop it.
    assert!(check.check().now_or_never().is_none());
    tokio::task::yield_now().await;
    gate.send_replace(true);
    // The load that check started goes on; the next check waits for it.
    check.check().await.expect("ready");
    assert_eq!(held.reads_from_zero.load(Ordering::SeqCst), 1);
    check.check().await.expect("still ready");
    assert_eq!(held.reads_from_zero.load(Ordering::SeqCst), 1);
}

async fn a_page_that_arrives_during_a_read_waits_for_the_next(app: TestApp) {
    let lamp = app.file(Filing::new("Lampa", 1)).await;
    let (feed_gate, feed_open) = watch::channel(true);
    let held = Arc::new(Held {
        feed_open,
        ..Held::new(app.stores.reports.clone(), watch::channel(true).1)
    });
    let mut entered = held.entered.subscribe();
    let index = ListIndex::new(held.clone(), 1_000, app.clock.clone()).expect("an index");
    index.readiness().check().await.expect("loaded");
    let filter = ReportFilter::newest(Page::default());
    let now = app.clock.now();
    let issues = |page: Option<ListPage<IndexRow>>| -> Vec<Uuid> {
        let page = page.expect("a page from the index");
        page.rows.iter().map(|row| row.issue_id).collect()
    };
    // The first page asks for a read, which is held once its statement has run.
    feed_gate.send_replace(false);
    let mut first = Box::pin(index.page(&filter, now));
    assert!(futures::poll!(&mut first).is_pending());
    entered.wait_for(|n| *n == 1).await.expect("the first read");
    // Filed after that read's statement, then a second page arrives while it is held.
    let pothole = app.file(Filing::new("Výtluk", 2)).await;
    let mut second = Box::pin(index.page(&filter, now));
    assert!(futures::poll!(&mut second).is_pending());
    feed_gate.send_replace(true);
    // The second page is written from the next read, with the pothole. The first is written
    // from the read it waited for, without it, or from the next if that was applied before
    // this test polled the page again (newer is as right; it failed the exact check about one
    // run in five).
    let first = issues(first.await);
    let with_pothole = vec![pothole.issue, lamp.issue];
    assert!(
        first == vec![lamp.issue] || first == with_pothole,
        "{first:?}"
    );
    assert_eq!(issues(second.await), with_pothole);
    assert_eq!(*entered.borrow(), 2);
}

async fn a_read_that_panics_leaves_the_page_to_the_database(app: TestApp) {
    let lamp = app.file(Filing::new("Lampa", 1)).await;
    let held = Arc::new(Held::new(
        app.stores.reports.clone(),
        watch::channel(true).1,
    ));
    let index = ListIndex::new(held.clone(), 1_000, app.clock.clone()).expect("an index");
    index.readiness().check().await.expect("loaded");
    let filter = ReportFilter::newest(Page::default());
    let now = app.clock.now();
    // Bounded: a page that waited for ever on the failed read would hang the suite.
    let bound = Duration::from_secs(30);
    held.panic_next.store(true, Ordering::SeqCst);
    let page = tokio::time::timeout(bound, index.page(&filter, now))
        .await
        .expect("answered");
    assert!(
        page.is_none(),
        "the database answers the page of the failed read"
    );
    // The index was dropped; once loaded again, pages come from it through the feed reads.
    index.load_now().await;
    let page = tokio::time::timeout(bound, index.page(&filter, now))
        .await
        .expect("answered")
        .expect("a page from the index again");
    let rows: Vec<Uuid> = page.rows.iter().map(|row| row.issue_id).collect();
    assert_eq!(rows, vec![lamp.issue]);
    assert_eq!(held.reads_from_zero.load(Ordering::SeqCst), 2);
}
