//! Placeholder: replaced by the json benchmarks.
fn main() {}
