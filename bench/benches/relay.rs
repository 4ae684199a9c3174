//! Placeholder: replaced by the relay benchmarks.
fn main() {}
