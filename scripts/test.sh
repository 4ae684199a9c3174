#!/usr/bin/env bash
# The project's test command: formatting, lints, and every test (doc tests
# included). `.ci/run` calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --all-features -- -D warnings

echo "== cargo test (release-optimised test profile; includes doc tests)"
cargo test --workspace --all-features

# Fuzz targets need nightly (cargo-fuzz); build them when it is installed so
# they cannot rot, and say so when it is not.
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  echo "== fuzz targets build (nightly)"
  (cd fuzz && cargo +nightly build --bins)
else
  echo "== no nightly toolchain: fuzz targets not built"
fi
