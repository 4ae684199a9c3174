#!/usr/bin/env bash
# The browser build's figures (bench/RESULTS.md, "Browser build"): the
# module's size raw and gzipped with libsecp256k1's default tables and with
# `lowmemory`; then, in one headless Chromium page, verifyEvent,
# getEventHash, finalizeEvent and nip19.decode against nostr-wasm and
# nostr-tools, verifyEvents of 10,000 events with the page's longest
# block, both secp256k1 table sizes, and the SWAR/simd128 rows (two bench
# builds). Not part of CI. Run scripts/browser-test.sh first (it builds
# and installs the package the page loads).
set -euo pipefail
cd "$(dirname "$0")/.."
variants=target/browser/variants
build() { bash scripts/browser-build.sh "$variants/$1" "$2" "$3"; }
build simd128-fulltables "" simd128
build swar-bench lowmemory,bench swar
build simd128-bench lowmemory,bench simd128
# The package's own build (lowmemory), as a variant too.
rm -rf "$variants/simd128" && cp -r crates/ito-node/dist-wasm "$variants/simd128"
for v in simd128 simd128-fulltables; do
  f=$variants/$v/ito_wasm_bg.wasm
  echo "size $v: $(stat -c %s "$f") bytes raw, $(gzip -9 -c "$f" | wc -c) bytes gzip -9"
done
node scripts/browser-bench.mjs "simd&variants=simd128,simd128-fulltables" | tee target/browser/bench.json
