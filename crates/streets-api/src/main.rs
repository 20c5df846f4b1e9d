//! The streets-api binary: `serve` (default), `migrate`, `import FILE` (`streets_api::cli`).

/// mimalloc, chosen by the binary (why, and why here: `service_kit::startup::main`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    service_kit::startup::main::<streets_api::cli::Cli>()
}
