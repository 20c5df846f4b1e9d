//! MQTT clients of a test, made with paho as the services' own are (feature `mqtt`).

use std::time::Duration;

use paho_mqtt::{AsyncClient, ConnectOptionsBuilder, CreateOptionsBuilder, PersistenceType};

/// A client of the broker at `uri` (`tcp://host:port`, `ssl://host:port`) named
/// `<prefix>-<random>`, persisting nothing; not connected yet.
pub fn client(uri: &str, prefix: &str) -> AsyncClient {
    CreateOptionsBuilder::new_v3()
        .server_uri(uri)
        .client_id(format!("{prefix}-{}", uuid::Uuid::new_v4().simple()))
        .persistence(PersistenceType::None)
        .create_client()
        .expect("an MQTT client")
}

/// Connect options for MQTT 3.1.1 with a keep-alive of 30 seconds, to add to.
pub fn options() -> ConnectOptionsBuilder {
    let mut options = ConnectOptionsBuilder::with_mqtt_version(paho_mqtt::MQTT_VERSION_3_1_1);
    options.keep_alive_interval(Duration::from_secs(30));
    options
}
