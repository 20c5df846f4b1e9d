//! platform-messages (skeleton).
