#!/usr/bin/env bash
# aarch64 (the NEON kernels) under qemu user-mode emulation: the tests that
# exercise a kernel, then the `ito` binary built for aarch64 against the
# host's build, byte for byte. scripts/test.sh runs this; it installs what
# it needs (scripts/aarch64-toolchain.sh) and fails, never skips, when it
# cannot.
#
# Tests run here (every one that calls a kernel; the emulated CPU offers
# NEON, so each dispatching test runs the NEON kernels against the
# reference, and the kernel-by-kernel tests run the NEON and SWAR ones):
#   --lib                   the kernels' own unit tests (simd::*), Str, json, hex
#   hex_kernels             every hex kernel, guard pages
#   json_guard              every JSON kernel at a PROT_NONE page boundary
#   json_differential, json_arbitrary, json_testsuite, json_options,
#   json_alloc              the string codec (quote/unquote/escape/unescape)
#   json_de, json_de_serde, json_de_props, json_str_facts
#                           JSON reading (the deserializer's scans)
#   json_writer, json_serde JSON writing (every string through each escaping option)
#   str_model, str_traits, str_format, str_alloc    Str
#   text_toolkit, text_regressions, text_alloc      the relay text toolkit
#   nostr_codec, nostr_events, nostr_messages, nostr_relay, nostr_sign,
#   nostr_nip19, nostr_batch                        Nostr
# Left out (no kernel of their own, or not meaningful emulated):
#   intern_*                the interners hash with xxh3 (a dependency's
#                           code, no ito kernel); their stress and
#                           concurrency tests take minutes emulated
#   loom_*                  need `--cfg loom` (a separate build of
#                           everything); they model atomics, not kernels
#   json_de_miri            Miri-sized runs of paths json_de covers
#   json_serde_shapes, json_serde_typed
#                           the serializer's structure (data-model shapes,
#                           typed corpora) is architecture-independent, and
#                           their strings reach the same kernels json_serde
#                           drives; together ~400 CPU-s to compile, more
#                           than the rest of this step's test build
# Measured cold on 2 vCPUs shared with other builds: test build 340 s CPU,
# run under qemu ~150 s (json_de 89 s), aarch64 ito 125 s CPU.
set -euo pipefail
cd "$(dirname "$0")/.."

target=aarch64-unknown-linux-gnu
sysroot=/usr/aarch64-linux-gnu
tdir=${CARGO_TARGET_DIR:-target}

step_start=$SECONDS
bash scripts/aarch64-toolchain.sh
echo "   toolchain: $((SECONDS - step_start)) s"

export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L $sysroot"
# secp256k1-sys (feature schnorr) compiles libsecp256k1 with the cross C compiler.
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
export AR_aarch64_unknown_linux_gnu=aarch64-linux-gnu-ar

tests=(
  --lib
  --test hex_kernels --test json_guard
  --test json_differential --test json_arbitrary --test json_testsuite
  --test json_options --test json_alloc
  --test json_de --test json_de_serde --test json_de_props --test json_str_facts
  --test json_writer --test json_serde
  --test str_model --test str_traits --test str_format --test str_alloc
  --test text_toolkit --test text_regressions --test text_alloc
  --test nostr_codec --test nostr_events --test nostr_messages --test nostr_relay
  --test nostr_sign --test nostr_nip19 --test nostr_batch
)

t=$SECONDS
cargo test -p ito --all-features --target "$target" --no-run "${tests[@]}"
echo "   aarch64 test build: $((SECONDS - t)) s"
t=$SECONDS
cargo test -p ito --all-features --target "$target" --no-fail-fast "${tests[@]}"
echo "   aarch64 test run (qemu): $((SECONDS - t)) s"

# The command-line tool: the same commands on the same files, built for
# this host and for aarch64; stdout, stderr and the exit status must be
# identical. The inputs cover valid and invalid documents (JSONTestSuite's
# y_, n_ and i_ files, the corpora), real signed events, and the same
# events tampered with (a changed content: bad id; a changed signature;
# a cut-off line: a parse error).
t=$SECONDS
cargo build -q -p ito-cli --profile test
cargo build -q -p ito-cli --profile test --target "$target"
echo "   ito CLI builds: $((SECONDS - t)) s"
host_ito=$tdir/debug/ito
arm_ito="qemu-aarch64 -L $sysroot $tdir/$target/debug/ito"
work=$tdir/aarch64-cli
rm -rf "$work"
mkdir -p "$work/host" "$work/aarch64"
sed -e '1s/Walled/Walked/' -e '2s/\("sig":"[0-9a-f]*\)[0-9a-f]"/\10"/' \
  -e '3s/.\{40\}$//' -e '4s/"kind":[0-9]*/"kind":7/' data/nostr/events.jsonl >"$work/tampered.jsonl"
cat data/nostr/events.jsonl "$work/tampered.jsonl" >"$work/events.jsonl"
run_cli() { # dir name command...
  local dir=$1 name=$2
  shift 2
  local status=0
  "$@" >"$dir/$name.out" 2>"$dir/$name.err" || status=$?
  echo "$status" >"$dir/$name.status"
}
cli_cases() { # dir ito...
  local dir=$1
  shift
  run_cli "$dir" check "$@" json check data/jsontestsuite/*.json data/corpus/*.json
  run_cli "$dir" check-lines "$@" json check --lines "$work/events.jsonl"
  run_cli "$dir" verify "$@" nostr verify "$work/events.jsonl"
  run_cli "$dir" verify-good "$@" nostr verify data/nostr/events.jsonl
  run_cli "$dir" verify-ids "$@" nostr verify --id-only "$work/events.jsonl"
  run_cli "$dir" fmt-pretty "$@" json fmt --pretty data/corpus/twitter.json data/corpus/citm_catalog.json
}
cli_cases "$work/host" $host_ito
cli_cases "$work/aarch64" $arm_ito
if ! diff -r "$work/host" "$work/aarch64"; then
  echo "error: the aarch64 ito and the host ito disagree (above; files in $work)" >&2
  exit 1
fi
# The comparison means something only if the commands did their work:
# every valid event passes, and each tampered one is reported.
grep -qx 0 "$work/host/verify-good.status"
[ "$(wc -l <"$work/host/verify.out")" -ge 4 ]
echo "   ito CLI under qemu: identical output ($(ls "$work/host" | wc -l) files); $((SECONDS - t)) s"
echo "   aarch64 step: $((SECONDS - step_start)) s"
