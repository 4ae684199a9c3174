#!/usr/bin/env bash
# Builds the browser (wasm32-unknown-unknown, wasm-bindgen) half of the
# `ito-codecs` npm package: crates/ito-node/wasm → crates/ito-node/dist-wasm/
# (ito_wasm.js, the glue, and ito_wasm_bg.wasm).
#
#   scripts/browser-build.sh                 the package's build (into dist-wasm/):
#                                            features `lowmemory`, simd128
#   scripts/browser-build.sh OUT FEATURES SIMD
#                                            a variant for the size and speed
#                                            figures: FEATURES is a cargo feature
#                                            list ("" for libsecp256k1's large
#                                            tables | lowmemory | bench,...),
#                                            SIMD is simd128 or swar
#
# The package uses libsecp256k1's small tables (`lowmemory`): a module of
# about 0.46 MB (0.17 MB gzipped) instead of 1.6 MB (1.3 MB gzipped), for
# a BIP-340 check about 1.3x slower, still over 3x nostr-wasm's speed
# (bench/RESULTS.md, "Browser build").
#
# Installs what it needs when missing and fails, never skips, when it
# cannot: the Rust target (rustup), clang 14 and llvm-ar 14 (Debian
# clang-14, llvm-14; libsecp256k1 is C, built against secp256k1-sys's own
# wasm sysroot), and wasm-bindgen-cli at the version of `wasm-bindgen` in
# Cargo.lock (the glue and the CLI must agree), into target/wasm-bindgen-cli.
#
# libsecp256k1 is built with USE_FORCE_WIDEMUL_INT64: wasm32 has no
# 64×64→128 multiply, and the default field code calls `__multi3` for each
# one, which makes a BIP-340 check about 4× slower (bench/RESULTS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-$root/crates/ito-node/dist-wasm}
features=${2-lowmemory}
simd=${3:-simd128}
target=wasm32-unknown-unknown

if ! rustup target list --installed | grep -qx "$target"; then
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

# wasm-bindgen-cli, pinned to the lock file's wasm-bindgen.
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$version" ] || { echo "no wasm-bindgen in Cargo.lock" >&2; exit 1; }
bindgen_root=$root/target/wasm-bindgen-cli
bindgen=$bindgen_root/bin/wasm-bindgen
if ! [ -x "$bindgen" ] || [ "$("$bindgen" --version | awk '{ print $2 }')" != "$version" ]; then
  echo "   cargo install wasm-bindgen-cli $version (into target/wasm-bindgen-cli)"
  # --locked first; a registry index without one of the CLI's locked
  # dependency versions (seen: webpki-roots 1.0.11 missing) gets a fresh
  # resolution of the same CLI version instead. --debug: an unoptimised
  # CLI compiles in about three quarters of the time (445 s against about
  # 600 s on two loaded cores) and still binds this module in 0.4 s, with
  # byte-identical output. --no-default-features drops the TLS stack that
  # only the CLI's test runner uses to download browser drivers: 78 s
  # instead of 445 s (2026-11-29, Zen 5, load 3-4).
  flags=(-q --debug --no-default-features --version "$version" --root "$bindgen_root")
  cargo install "${flags[@]}" --locked wasm-bindgen-cli 2>/dev/null ||
    cargo install "${flags[@]}" wasm-bindgen-cli
fi

rustflags='--cfg getrandom_backend="wasm_js"'
if [ "$simd" = simd128 ]; then
  rustflags="$rustflags -C target-feature=+simd128"
elif [ "$simd" != swar ]; then
  echo "SIMD must be simd128 or swar, not $simd" >&2
  exit 1
fi
target_dir=$root/target/browser/$simd${features:+-${features//,/-}}
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$rustflags" \
  CC_wasm32_unknown_unknown=clang-14 AR_wasm32_unknown_unknown=llvm-ar-14 \
  CFLAGS_wasm32_unknown_unknown="-nostdlibinc -DUSE_FORCE_WIDEMUL_INT64=1" \
  CARGO_TARGET_DIR=$target_dir \
  cargo build -q --release --target "$target" -p ito-wasm ${features:+--features "$features"}
rm -rf "$out"
"$bindgen" --target web --weak-refs --no-typescript --out-dir "$out" \
  "$target_dir/$target/release/ito_wasm.wasm"
# The glue is an ES module; this tells Node so (no reparse warning).
echo '{ "type": "module" }' >"$out/package.json"
ls -l "$out"/*.wasm | awk '{ print "   " $5 " bytes: " $9 }'
