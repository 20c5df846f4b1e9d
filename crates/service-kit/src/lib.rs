//! Service plumbing.
