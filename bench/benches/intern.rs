//! Placeholder: replaced by the intern benchmarks.
fn main() {}
