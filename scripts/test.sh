#!/usr/bin/env bash
# The project's test command: formatting, lints, and every test (doc tests
# included). `.ci/run` calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

# A clean checkout gains nothing from incremental compilation, and its
# caches only add to the build directory, on machines whose free disk is
# not guaranteed. The free space is printed at the start and on every
# exit, so that a "no space left" failure can be read from the log.
export CARGO_INCREMENTAL=0
free_disk() { df -P -h . 2>/dev/null | awk 'NR == 2 { print $4 " free on " $6 }'; }
echo "== disk: $(free_disk)"
trap 'echo "== disk: $(free_disk), build directory $(du -sh target 2>/dev/null | cut -f1)"' EXIT

# Wall time of each step, printed when it ends (the steps with a timer of
# their own print theirs), so a slow run shows where its time went.
step_start=$SECONDS
step_done() { echo "   $1: $((SECONDS - step_start)) s (total $SECONDS s)"; step_start=$SECONDS; }

echo "== cargo fmt --check"
cargo fmt --all -- --check
step_done "fmt step"

echo "== cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --all-features -- -D warnings
step_done "clippy step"

echo "== cargo test (release-optimised test profile; includes doc tests)"
cargo test --workspace --all-features
step_done "test step"

# The run-time dispatch once more at each level below this CPU's best
# (`ITO_KERNEL`, simd/mod.rs): the paths a portable build takes on an
# older CPU, e.g. the inline 16-byte medium-string path that every level
# but AVX-512 uses, run nowhere else on a newer host. The codec test
# executables of the step above run again as they are (no build); about
# 15 s per level. (SWAR, the level without vectors, is tested by the
# i686, wasm32 and Miri steps below.)
levels=""
if [ "$(uname -m)" = x86_64 ]; then
  if grep -qw avx512bw /proc/cpuinfo; then levels="avx2 sse2"
  elif grep -qw avx2 /proc/cpuinfo; then levels="sse2"; fi
fi
codec_tests=$(cargo test --workspace --all-features --no-run --message-format=json 2>/dev/null | python3 -c '
import json, sys
wanted = {("ito", "lib"), ("json_differential", "test"), ("json_guard", "test"),
          ("json_arbitrary", "test"), ("json_testsuite", "test"), ("json_options", "test"),
          ("hex_kernels", "test"), ("json_de", "test"), ("nostr_codec", "test")}
for line in sys.stdin:
    m = json.loads(line)
    t, exe = m.get("target") or {}, m.get("executable")
    if exe and any((t.get("name"), k) in wanted for k in t.get("kind", [])):
        print(exe)
')
if [ "$(echo "$codec_tests" | wc -w)" -ne 9 ]; then
  echo "expected 9 codec test executables, found: $codec_tests" >&2
  exit 1
fi
for level in $levels; do
  echo "== codec tests with ITO_KERNEL=$level (run-time dispatch at a lower level)"
  for exe in $codec_tests; do
    ITO_KERNEL=$level "$exe" -q
  done
done
step_done "lower dispatch levels step"

# The headline benchmark report (bench/src/bin/report.rs) in quick mode: a
# few rounds per case, so the binary and every case keep running; the
# figures are not read. Built with the test profile (optimised), which
# reuses the artifacts of the step above instead of a release build; it
# writes under target/, never into bench/report/.
echo "== headline report, quick mode (figures not meaningful)"
report_start=$SECONDS
cargo run --profile test -q -p ito-bench --bin report -- --quick --no-python --out target/report-quick
echo "   report step: $((SECONDS - report_start)) s"

# The codec tests once more in a build for this CPU (-C target-cpu=native),
# so the compile-time dispatch path (simd/dispatch.rs: the kernel called
# directly when the build guarantees AVX2/AVX-512) is tested, not only the
# run-time one. Its own target directory keeps the flags from invalidating
# the main build.
echo "== codec tests with RUSTFLAGS=-C target-cpu=native (compile-time dispatch)"
RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=target/native \
  cargo test -p ito --features serde --lib \
    --test json_differential --test json_guard --test json_options \
    --test json_arbitrary --test json_testsuite --test nostr_codec \
    --test nostr_events --test text_toolkit --test text_regressions \
    --test hex_kernels --test str_model --test str_traits --test str_format \
    --test json_de --test json_de_serde
step_done "target-cpu=native step"

# The compile-time arms of simd/dispatch.rs that the native build above
# does not take. On a host without AVX-512, the AVX-512 arms are
# type-checked (the explicit --target keeps the flags off build scripts
# and proc macros, which run on this host). On an AVX-512 host, where the
# native build took those arms, the codec tests run once more in a build
# that guarantees AVX2 but not AVX-512 (what `-C target-cpu=native` gives
# on Zen 3 or Intel before Ice Lake): its own short-string paths
# (simd/json: `medium_base`, two 32-byte blocks) run nowhere else here.
# About 70 s of build and 6 s of tests on 2 cores.
if [ "$(uname -m)" = x86_64 ]; then
  if grep -qw avx512bw /proc/cpuinfo; then
    echo "== codec tests in a build that guarantees AVX2 but not AVX-512 (compile-time AVX2 arms)"
    RUSTFLAGS="-C target-feature=+avx2,+bmi1,+bmi2,+popcnt,+lzcnt,+fma" \
      CARGO_TARGET_DIR=target/avx2 \
      cargo test -q -p ito --features serde --target x86_64-unknown-linux-gnu --lib \
        --test json_differential --test json_guard --test json_arbitrary \
        --test json_testsuite --test json_options --test hex_kernels --test json_de
  else
    echo "== cargo check with AVX-512 target features (compile-time AVX-512 arms)"
    RUSTFLAGS="-C target-feature=+avx2,+bmi1,+bmi2,+popcnt,+lzcnt,+avx512f,+avx512bw,+avx512vl" \
      CARGO_TARGET_DIR=target/avx512-check \
      cargo check -p ito --features serde --lib --tests --target x86_64-unknown-linux-gnu
  fi
fi
step_done "compile-time AVX2 / AVX-512 step"

# serde_json's optional features change how `Value`, `Number` and
# `RawValue` serialize (private markers), and Cargo unifies features, so
# one dependency turning them on is enough: a crate outside the workspace
# turns on `raw_value`, `arbitrary_precision` and `float_roundtrip` and runs
# serde_json's writing cases and differential checks against ito::json.
# Its own target directory keeps serde_json's features out of the main build.
echo "== serde_json with raw_value, arbitrary_precision, float_roundtrip (tests-serde-json-features)"
features_start=$SECONDS
(cd tests-serde-json-features && CARGO_TARGET_DIR=../target/serde-json-features cargo test --quiet)
echo "   serde_json features step: $((SECONDS - features_start)) s"

# The Python package (crates/ito-py, `ito-codecs` on PyPI, `import
# ito_codecs`): a virtual environment under target/, maturin builds both
# abi3 wheels (release; cp39-abi3 and the faster-calling cp310-abi3), pip
# installs each in turn, and pytest runs the package's tests (and, with the
# cp310 wheel that pip picks on 3.10+, the Dask example's). Exit status 5
# (no tests collected) fails the step like any other failure. Then each
# wheel alone in a fresh venv (scripts/python-installed.py).
echo "== python: build the ito-codecs wheels, pytest (crates/ito-py/tests, examples/python)"
python_start=$SECONDS
PYVENV=target/python-venv
WHEELS=target/wheels/ito-py
python3 -m venv "$PYVENV"
"$PYVENV/bin/python" -m pip install -q --disable-pip-version-check -r crates/ito-py/requirements-test.txt
rm -rf "$WHEELS"
"$PYVENV/bin/maturin" build --release --quiet --skip-auditwheel -m crates/ito-py/Cargo.toml -o "$WHEELS"
"$PYVENV/bin/maturin" build --release --quiet --skip-auditwheel -m crates/ito-py/Cargo.toml -o "$WHEELS" \
  --no-default-features --features abi3-py310
for tag in cp310 cp39; do
  "$PYVENV/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$WHEELS"/*-"$tag"-abi3-*.whl
  if [ "$tag" = cp310 ]; then
    "$PYVENV/bin/python" -m pytest -q -p no:cacheprovider crates/ito-py/tests examples/python
  else
    "$PYVENV/bin/python" -m pytest -q -p no:cacheprovider crates/ito-py/tests
  fi
done
# Each wheel as a user gets it: alone in a fresh venv (nothing else
# installed, no index), imported from an empty directory, so neither the
# source tree nor the test venv's packages can stand in for it.
for tag in cp310 cp39; do
  FRESH=target/python-fresh-$tag
  rm -rf "$FRESH" && python3 -m venv "$FRESH"
  "$FRESH/bin/python" -m pip install -q --disable-pip-version-check --no-index "$WHEELS"/*-"$tag"-abi3-*.whl
  (cd "$(mktemp -d)" && "$OLDPWD/$FRESH/bin/python" "$OLDPWD/scripts/python-installed.py" "$OLDPWD/data/nostr/events.jsonl")
done
echo "   python step: $((SECONDS - python_start)) s"

# The loom models of Pool and Interner need the `loom` crate, which only a
# `--cfg loom` build uses (fetched from crates.io like any dependency).
# Their own target directory keeps the cfg change from invalidating the
# main build.
echo "== loom models of Pool, Interner and Str (tests/loom_pool.rs, tests/loom_interner.rs, tests/loom_str.rs)"
# Release speed, but with debug assertions: the interner's debug-only
# check of every trusted miss hint against a fresh walk runs under loom.
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS=true \
  cargo test -p ito --release --test loom_pool --test loom_interner --test loom_str
step_done "loom step"

# aarch64 (the NEON kernels) under qemu's user-mode emulation: the tests
# that exercise a kernel, and the `ito` binary's output against this
# host's, byte for byte. scripts/aarch64.sh installs the cross toolchain
# and qemu when they are missing (scripts/aarch64-toolchain.sh) and fails,
# never skips, when it cannot; it lists what it runs and what it leaves
# out, and why.
echo "== aarch64 under qemu: kernel tests (lib, codec, Str, hex, JSON, Nostr), ito CLI output"
bash scripts/aarch64.sh
step_done "aarch64 step"

# 32-bit targets: the crate must build for WebAssembly and pass its unit
# tests (plus the Str and interner model tests) with 32-bit pointers, where
# the portable SWAR kernels are the only path. Each target is added with
# rustup when missing (as the aarch64 and wasm32-wasip1 steps add theirs);
# a target that cannot be added fails the run rather than skipping a test.
have_target() { rustup target list --installed 2>/dev/null | grep -qx "$1"; }
for t in wasm32-unknown-unknown i686-unknown-linux-gnu; do
  have_target "$t" || rustup target add "$t"
done
echo "== wasm32-unknown-unknown: cargo check -p ito"
cargo check -p ito --target wasm32-unknown-unknown
step_done "wasm32 step"

# The kernel tests on wasm32 (wasm32-wasip1 under Node's WASI), once with
# the portable SWAR kernels and once with WebAssembly SIMD (+simd128).
# scripts/wasm-tests.sh installs the target and clang/llvm 14 when they
# are missing and fails, never skips; it lists what it leaves out and why.
echo "== wasm32-wasip1 under Node's WASI: kernel, codec and Str tests, SWAR and simd128"
bash scripts/wasm-tests.sh
step_done "wasm32 simd128 step"
# i686 test binaries link with `cc -m32` (Debian: gcc-multilib). Where that
# is missing (gcc-multilib conflicts with the aarch64 cross compiler above),
# scripts/i686-sysroot.sh unpacks the 32-bit glibc and libgcc packages
# under target/ (apt-get download, nothing installed) and the tests link
# statically against them.
if echo 'int main(void){return 0;}' | cc -m32 -x c - -o /dev/null 2>/dev/null; then
  i686_env=(env)
else
  bash scripts/i686-sysroot.sh target/i686-sysroot >/dev/null
  cc32="$PWD/target/i686-sysroot/cc-m32"
  i686_env=(env CARGO_TARGET_I686_UNKNOWN_LINUX_GNU_LINKER="$cc32" CC_i686_unknown_linux_gnu="$cc32"
    CARGO_TARGET_I686_UNKNOWN_LINUX_GNU_RUSTFLAGS="-C target-feature=+crt-static")
fi
echo "== i686-unknown-linux-gnu: library unit tests, Str, interner and codec tests"
"${i686_env[@]}" cargo test -p ito --all-features --target i686-unknown-linux-gnu --lib \
  --test str_model --test str_alloc --test str_traits --test str_format \
  --test intern_model --test intern_local --test intern_miri \
  --test json_differential --test json_guard --test json_serde --test json_writer --test json_value \
  --test nostr_codec --test nostr_events --test hex_kernels
step_done "i686 step"

# The fuzz build and the Miri runs need a nightly toolchain. A bare CI
# machine has none: install it (minimal profile, with Miri and the std
# sources Miri builds from; about 1 min). Where rustup cannot install it
# the script fails, as for any other missing tool: the steps never skip.
if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  echo "== installing the nightly toolchain (fuzz build, Miri)"
  rustup toolchain install nightly --profile minimal --no-self-update \
    --component miri --component rust-src
fi

# Fuzz targets need nightly (cargo-fuzz, installed above); build them so
# they cannot rot, and say so when it is not.
echo "== fuzz targets build (nightly)"
(cd fuzz && cargo +nightly build --bins)
step_done "fuzz build step"

# Miri on the JSON deserializer's unsafe code (in-place string slices,
# the whitespace and number scans): small documents, exact-size inputs,
# every prefix. Then `Str`'s unit tests (str/mod.rs `tests`): the heap
# header, the inline image and the `format!` writer, which points into a
# buffer its caller owns. Runs on the nightly toolchain installed above
# (the library's baseline stays stable); the miri component is added to a
# nightly that lacks it (about 2 min).
cargo +nightly miri --version >/dev/null 2>&1 || rustup component add miri rust-src --toolchain nightly
echo "== miri: json::de (tests/json_de_miri.rs), json::Value (tests/json_value_miri.rs), Str (str::tests)"
MIRIFLAGS=-Zmiri-strict-provenance cargo +nightly miri test -q -p ito --features serde --test json_de_miri
# json::Value: in-place pushes, borrowed strings, the lazy hash index
# shared by two threads, the arena (about 30 s: the library build above
# is reused).
MIRIFLAGS=-Zmiri-strict-provenance cargo +nightly miri test -q -p ito --features serde --test json_value_miri
MIRIFLAGS=-Zmiri-strict-provenance cargo +nightly miri test -q -p ito --lib -- str::tests
step_done "miri step"

# The Node package (crates/ito-node, `ito-codecs` on npm): npm ci installs
# the lock file's @napi-rs/cli and nostr-tools (the tests' oracle), napi
# builds the addon (release, in the workspace's target directory, so the
# Python wheels' compiled ito is reused) and node's own runner runs
# __test__/. No npm registry or no node fails the step, like any failure.
echo "== node: build the ito-codecs addon, node --test (crates/ito-node/__test__)"
node_start=$SECONDS
(
  cd crates/ito-node
  npm ci --no-audit --no-fund --loglevel=error
  npx napi build --platform --release
  node --test __test__/
)
echo "   node step: $((SECONDS - node_start)) s"

# The browser build of the same package (crates/ito-node/wasm, wasm-bindgen
# for wasm32-unknown-unknown; libsecp256k1 by Debian's clang-14):
# scripts/browser-test.sh builds it (installing clang-14, chromium and the
# lock file's wasm-bindgen-cli under target/ when missing; fails, never
# skips), runs the contract tests above against it under Node, packs and
# installs the package as a user gets it, and drives headless Chromium
# through the contract tests, the JSON-lines page and the bench page.
# Needs the native addon of the step above.
echo "== browser: the wasm build of ito-codecs, in Node and headless Chromium (scripts/browser-test.sh)"
browser_start=$SECONDS
bash scripts/browser-test.sh
echo "   browser step: $((SECONDS - browser_start)) s"

# The relay against a real client and a real crash (crates/ito-relay/
# tests-js): nostr-tools' Relay and SimplePool over `ws` publish, query,
# subscribe, close and reconnect to `ito relay serve`, and the relay is
# killed with SIGKILL at 20 moments during pipelined ingest. They run the
# `ito` binary that `cargo test` built above (target/debug/ito).
echo "== relay: nostr-tools client and kill -9 during ingest (crates/ito-relay/tests-js)"
relay_js_start=$SECONDS
(
  cd crates/ito-relay/tests-js
  npm ci --no-audit --no-fund --loglevel=error
  ITO_BIN="$PWD/../../../target/debug/ito" node --test client.test.mjs crash.test.mjs
)
echo "   relay client step: $((SECONDS - relay_js_start)) s"
