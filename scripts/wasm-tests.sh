#!/usr/bin/env bash
# The library's kernel tests on wasm32 (wasm32-wasip1, run by Node's
# built-in WASI through scripts/wasi-run.mjs), twice: without SIMD (the
# portable SWAR kernels) and with `-C target-feature=+simd128` (the
# WebAssembly SIMD kernels, chosen at compile time; simd/vector/simd128.rs).
# Every dispatching test then runs the build's kernel against the scalar
# reference, and the kernel-by-kernel tests run SWAR and, in the second
# build, simd128 on their own.
#
# Installs what it needs when missing: the Rust target (rustup), and clang
# and llvm-ar 14 (Debian clang-14, llvm-14) for libsecp256k1, which the
# `schnorr` feature and the Nostr dev-dependencies compile for wasm32
# against secp256k1-sys's own small C sysroot. Fails, never skips, when it
# cannot.
#
# Tests run here:
#   --lib                   the kernels' own unit tests (simd::*), Str, json, hex
#   hex_kernels             every hex kernel at every length and alignment
#   json_differential, json_arbitrary, json_testsuite, json_options
#                           the string codec (quote/unquote/escape/unescape)
#   json_de, json_str_facts JSON reading (the deserializer's scans)
#   str_model, str_traits, str_format               Str
#   text_toolkit            the relay text toolkit
#   nostr_codec             Nostr ids and hex
# Left out:
#   json_guard and the guard-page unit tests (simd::guard, json's
#     escape_tests/scan_tests, facts' guard test): they need mmap/mprotect
#     (`cfg(unix)`); WASI has no memory protection. On wasm a load past the
#     end of linear memory traps, but inside it every byte is readable, so
#     the in-bounds rule is checked there by review and by the tests' own
#     comparisons, not by a fault.
#   str::tests::str_threads, str::facts_model::facts_follow_the_model,
#     threads_share_heap_strings (str_model) (`--skip` below): they spawn
#     threads, which wasm32-wasip1 has not. intern_concurrency, loom_*
#     and nostr_batch for the same reason.
#   json_alloc, json_de_serde, json_de_props, json_writer, json_serde*,
#     str_alloc, text_regressions, text_alloc, nostr_events,
#     nostr_messages, nostr_relay, nostr_sign, nostr_nip19, intern_*,
#     json_de_miri: they reach the kernels only through the entry points
#     the tests above already run (they passed in the SWAR build here on
#     2026-11-28, except the thread tests); left to the native and aarch64
#     runs because each test binary is an optimised build of its own, twice,
#     and this step must stay well under ten minutes on two shared cores.
# Proptest's failure persistence is off (PROPTEST_DISABLE_FAILURE_PERSISTENCE):
# the sandbox has no current directory to find the regression files from,
# so their saved cases run only natively.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
target=wasm32-wasip1
step_start=$SECONDS

if ! rustup target list --installed | grep -qx "$target"; then
  echo "   rustup target add $target"
  rustup target add "$target"
fi
if ! command -v clang-14 >/dev/null || ! command -v llvm-ar-14 >/dev/null; then
  echo "   installing clang-14 llvm-14 (apt-get)"
  sudo=()
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then sudo=(sudo); fi
  apt_install() {
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -q --no-install-recommends clang-14 llvm-14 >/dev/null
  }
  if ! apt_install; then
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
    apt_install
  fi
fi
node -e 'require("node:wasi")' # Node with WASI (20 and later)

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target/wasm}
export CARGO_TARGET_WASM32_WASIP1_RUNNER="node --no-warnings $root/scripts/wasi-run.mjs"
# libsecp256k1 for wasm32: clang, and only secp256k1-sys's own headers
# (-nostdlibinc keeps the host's /usr/include out).
export CC_wasm32_wasip1=clang-14 AR_wasm32_wasip1=llvm-ar-14 CFLAGS_wasm32_wasip1=-nostdlibinc

tests=(
  --lib --test hex_kernels
  --test json_differential --test json_arbitrary --test json_testsuite
  --test json_options --test json_de --test json_str_facts
  --test str_model --test str_traits --test str_format
  --test text_toolkit --test nostr_codec
)
# A panic aborts on this target, and the harness's captured output goes
# with it: --nocapture prints the failing test's message before the abort.
harness=(--nocapture --skip str::tests::str_threads --skip str::facts_model::facts_follow_the_model
  --skip threads_share_heap_strings)
export PROPTEST_DISABLE_FAILURE_PERSISTENCE=true

# Both builds by default; `scripts/wasm-tests.sh simd128` (or `swar`) runs one.
builds=("${@:-swar simd128}")
for name in ${builds[*]}; do
  case $name in
    swar) flags="" ;;
    simd128) flags="-C target-feature=+simd128" ;;
    *) echo "unknown build '$name' (swar, simd128)" >&2; exit 2 ;;
  esac
  t=$SECONDS
  RUSTFLAGS="$flags" cargo test -q -p ito --all-features --target "$target" --no-run "${tests[@]}"
  echo "   wasm32 ($name) test build: $((SECONDS - t)) s"
  t=$SECONDS
  RUSTFLAGS="$flags" cargo test -q -p ito --all-features --target "$target" "${tests[@]}" \
    -- "${harness[@]}" 2>&1 | grep -v '^test .* \.\.\. ok$' | grep -v '^$'
  echo "   wasm32 ($name) test run (Node WASI): $((SECONDS - t)) s"
done
echo "   wasm32 step: $((SECONDS - step_start)) s"
