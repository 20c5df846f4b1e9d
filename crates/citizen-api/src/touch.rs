//! Reading memory ahead of its use: a page's rows lie anywhere among a million, each a cache
//! miss or several. Read one by one as they are used, each miss waits behind the work on the
//! row before; read first in a loop of independent loads and nothing else, the processor
//! overlaps them, and the work that follows finds them in cache (docs/benchmarks.md).

/// Reads every cache line of each text (their sum, so the loads are kept).
pub fn texts<'a>(texts: impl Iterator<Item = &'a str>) {
    let mut any = 0u8;
    for text in texts {
        for byte in text.as_bytes().iter().step_by(64) {
            any ^= byte;
        }
    }
    std::hint::black_box(any);
}
