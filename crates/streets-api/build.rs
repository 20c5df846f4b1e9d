//! Rebuilds when a migration is added or changed: `sqlx::migrate!` embeds the files of
//! migrations/streets-api, but cargo does not know to look there (sqlx's recommended build script).
fn main() {
    println!("cargo:rerun-if-changed=../../migrations/streets-api");
}
