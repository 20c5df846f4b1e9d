//! The embedded broker's HTTP console (rumqttd's `console`).

use platform_messages::notify::EmbeddedBroker;

/// A free `127.0.0.1:<port>` (bound, then let go).
pub fn free_address() -> String {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn the_embedded_broker_serves_its_console() {
    let console = free_address();
    let broker = EmbeddedBroker::start_with_console(&free_address(), Some(&console)).unwrap();
    assert_eq!(broker.console.map(|a| a.to_string()), Some(console.clone()));
    let mut answer = None;
    for _ in 0..100 {
        if let Ok(response) = reqwest::get(format!("http://{console}/")).await {
            answer = Some(response);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let response = answer.expect("the console answers");
    assert_eq!(response.status(), 200);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(
        body["listen"],
        console.as_str(),
        "GET / shows the console settings"
    );
}

#[tokio::test]
async fn a_taken_console_address_does_not_stop_the_broker() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let console = taken.local_addr().unwrap().to_string();
    let broker = EmbeddedBroker::start_with_console(&free_address(), Some(&console)).unwrap();
    assert_eq!(broker.console, None);
}
