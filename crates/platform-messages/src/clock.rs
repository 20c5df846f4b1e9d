//! The service's notion of "now": the shared [`service_kit::clock`] (system or manual).

pub use service_kit::clock::{Clock, ManualClock, SystemClock};
