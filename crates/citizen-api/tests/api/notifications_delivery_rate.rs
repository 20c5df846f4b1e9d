//! A measurement, not a check (`--ignored`): how many web pushes per second one deliverer sends
//! to the local stand-in push service, encryption and VAPID included, on SQLite. Prints the rate.

use std::time::Instant;

use service_kit::clock::Clock;

use crate::delivery_helpers::{
    accepted_report, deliverer, drain, spawn_delivery, stand_in, subscribe_push,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: cargo test -p citizen-api --test api -- --ignored delivery_rate --nocapture"]
async fn delivery_rate() {
    let app = spawn_delivery(test_support::Backend::Sqlite).await.unwrap();
    let server = stand_in(201).await;
    let browsers = 20;
    for _ in 0..browsers {
        subscribe_push(&app, "author-1", &server, None).await;
    }
    let issue = accepted_report(&app, "author-1", &[], 1).await.issue;
    for i in 0..99 {
        app.add_statement(issue, &format!("Update {i}"), app.clock.now())
            .await;
    }
    drain(&app).await;
    let d = deliverer(&app, true, None);
    let started = Instant::now();
    let round = d.run_once(app.clock.now()).await.unwrap();
    let secs = started.elapsed().as_secs_f64();
    assert_eq!(round.delivered, browsers * 100);
    println!(
        "delivered {} pushes in {secs:.2} s: {:.0} per second",
        round.delivered,
        round.delivered as f64 / secs
    );
}
