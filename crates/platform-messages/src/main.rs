//! The platform-messages binary: `serve` (default), `migrate`, `dev-token`
//! (`platform_messages::cli`).

/// mimalloc, chosen by the binary (why, and why here: `service_kit::startup::main`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    service_kit::startup::main::<platform_messages::cli::Cli>()
}
