//! A small deterministic generator for the geometry tests (no I/O, no crate): xorshift64*.

pub(super) struct TestRng(pub(super) u64);

impl TestRng {
    pub(super) fn unit(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }
}
