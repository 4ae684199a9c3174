//! Placeholder: replaced by the str benchmarks.
fn main() {}
