#!/usr/bin/env bash
# Builds the relays that `relay_load` (bench/src/bin/relay_load.rs) times
# ito's relay against, from the package registries, into target/peers/.
# Nothing of theirs is committed; run by hand, never from .ci/run.
#
#   scripts/relay_peers.sh            # every peer
#   scripts/relay_peers.sh khatru     # only the ones named
#
# Binaries land in target/peers/bin/:
#   nostr-rs-relay   crates.io nostr-rs-relay 0.8.12 (SQLite; needs protoc)
#   rnostr           crates.io rnostr 0.4.8 (LMDB)
#   nrb-lmdb         a minimal nostr-relay-builder 0.44.0 + nostr-lmdb 0.44.0
#                    relay, generated under target/peers/nrb-lmdb/
#   khatru-lmdb      a minimal khatru v0.19.1 + eventstore v0.16.2 (lmdb)
#                    relay, generated under target/peers/khatru-lmdb/
#
# Every peer is started by relay_load as `BIN DB_DIR 127.0.0.1:PORT` or with
# a config file it writes; per-connection rate limits are raised for the run
# (nrb-lmdb's notes_per_minute and max_reqs here; the config files of
# nostr-rs-relay and rnostr in relay_load). A peer that does not build is
# reported with its error and the others go on.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PEERS=$ROOT/target/peers
BIN=$PEERS/bin
LOGS=$PEERS/logs
mkdir -p "$BIN" "$LOGS"
# One target directory for every Rust peer (their shared crates build once).
export CARGO_TARGET_DIR=$PEERS/cargo-target
export CARGO_INCREMENTAL=0

SELECTED="${*:-nostr-rs-relay rnostr nrb-lmdb khatru-lmdb}"
declare -A STATUS

build_nostr_rs_relay() {
    if ! command -v protoc >/dev/null; then
        apt-get install -y protobuf-compiler || { apt-get update && apt-get install -y protobuf-compiler; }
    fi
    if cargo install --locked nostr-rs-relay --version 0.8.12 --root "$PEERS/nostr-rs-relay"; then
        cp "$PEERS/nostr-rs-relay/bin/nostr-rs-relay" "$BIN/nostr-rs-relay"
        return
    fi
    # Its lock file pins time 0.3.25, which no longer compiles (E0282 in
    # format_description/parse, rustc >= 1.80): build a copy of the
    # published source with only that crate moved to a fixed release.
    local src
    src=$(find "${CARGO_HOME:-$HOME/.cargo}"/registry/src -maxdepth 2 -type d -name nostr-rs-relay-0.8.12 | head -1)
    [ -n "$src" ] || return 1
    rm -rf "$PEERS/nostr-rs-relay-src" && cp -r "$src" "$PEERS/nostr-rs-relay-src" || return 1
    # Not a member of the ito workspace above target/.
    printf '\n[workspace]\n' >>"$PEERS/nostr-rs-relay-src/Cargo.toml"
    (
        cd "$PEERS/nostr-rs-relay-src" &&
            cargo update -p time@0.3.25 --precise 0.3.36 &&
            cargo build --release --locked --bin nostr-rs-relay
    ) && cp "$CARGO_TARGET_DIR/release/nostr-rs-relay" "$BIN/nostr-rs-relay"
}

build_rnostr() {
    if cargo install --locked rnostr --version 0.4.8 --root "$PEERS/rnostr"; then
        cp "$PEERS/rnostr/bin/rnostr" "$BIN/rnostr"
        return
    fi
    # Its NIP-50 search feature (always on) pulls lindera, whose build
    # scripts download dictionaries from outside the registries, which
    # fails here. Build a copy of the published source without search
    # (nothing the benchmark asks uses it): the `search` features dropped
    # from nostr-db, nostr-relay and nostr-extensions, the Search extension
    # not installed, and the import and bench paths no longer building search
    # words.
    local src
    src=$(find "${CARGO_HOME:-$HOME/.cargo}"/registry/src -maxdepth 2 -type d -name rnostr-0.4.8 | head -1)
    [ -n "$src" ] || return 1
    rm -rf "$PEERS/rnostr-src" && cp -r "$src" "$PEERS/rnostr-src" || return 1
    (
        cd "$PEERS/rnostr-src" || exit 1
        python3 - <<'PY' || exit 1
import re
t = open("Cargo.toml").read()
t = re.sub(r'(\[dependencies\.nostr-(db|relay)\]\nversion = "[^"]*"\n)features = \["search"\]\n', r"\1", t)
t = t.replace('[dependencies.nostr-extensions]\n', '[dependencies.nostr-extensions]\ndefault-features = false\nfeatures = ["metrics", "rate_limiter", "count"]\n')
t += "\n[workspace]\n"
open("Cargo.toml", "w").write(t)
r = open("src/relay.rs").read().replace(".add_extension(nostr_extensions::Search::new())", "")
open("src/relay.rs", "w").write(r)
l = open("src/lib.rs").read().replace("event.build_note_words();", "let _ = &mut event;")
open("src/lib.rs", "w").write(l.replace("opts.filter.build_words();", ""))
b = open("src/bench.rs").read().replace("opts.filter.build_words();", "")
open("src/bench.rs", "w").write(b)
PY
        grep -q '"search"' Cargo.toml && { echo "search still enabled"; exit 1; }
        cargo build --release --bin rnostr
    ) && cp "$CARGO_TARGET_DIR/release/rnostr" "$BIN/rnostr"
}

build_nrb_lmdb() {
    local dir=$PEERS/nrb-lmdb
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<'EOF'
[package]
name = "nrb-lmdb"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
nostr-relay-builder = "=0.44.0"
nostr-lmdb = "=0.44.0"
tokio = { version = "1", features = ["rt-multi-thread", "macros", "signal"] }

[profile.release]
debug = false

# Not a member of the ito workspace above it.
[workspace]
EOF
    cat >"$dir/src/main.rs" <<'EOF'
// nrb-lmdb DB_DIR ADDR: a nostr-relay-builder LocalRelay on nostr-lmdb,
// with the per-connection limits raised for a benchmark.
use nostr_lmdb::NostrLMDB;
use nostr_relay_builder::prelude::*;
use std::net::SocketAddr;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let db = args.next().expect("DB_DIR");
    let addr: SocketAddr = args.next().expect("ADDR").parse()?;
    let database = NostrLMDB::open(&db)?;
    let builder = RelayBuilder::default()
        .database(database)
        .addr(addr.ip())
        .port(addr.port())
        .max_filter_limit(500)
        .rate_limit(RateLimit {
            max_reqs: 100_000,
            notes_per_minute: u32::MAX,
        });
    let relay = LocalRelay::new(builder);
    relay.run().await?;
    eprintln!("nrb-lmdb: serving {db} on {}", relay.url().await);
    tokio::signal::ctrl_c().await?;
    relay.shutdown();
    Ok(())
}
EOF
    (cd "$dir" && cargo build --release) && cp "$CARGO_TARGET_DIR/release/nrb-lmdb" "$BIN/nrb-lmdb"
}

build_khatru_lmdb() {
    command -v go >/dev/null || { echo "go is not installed"; return 1; }
    local dir=$PEERS/khatru-lmdb
    mkdir -p "$dir"
    cat >"$dir/main.go" <<'EOF'
// khatru-lmdb DB_DIR ADDR: a khatru relay on the eventstore LMDB backend,
// wired the way khatru's own examples wire a store.
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/fiatjaf/eventstore/lmdb"
	"github.com/fiatjaf/khatru"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: khatru-lmdb DB_DIR ADDR")
		os.Exit(2)
	}
	db := &lmdb.LMDBBackend{Path: os.Args[1]}
	if err := os.MkdirAll(os.Args[1], 0o755); err != nil {
		panic(err)
	}
	if err := db.Init(); err != nil {
		panic(err)
	}
	relay := khatru.NewRelay()
	relay.StoreEvent = append(relay.StoreEvent, db.SaveEvent)
	relay.QueryEvents = append(relay.QueryEvents, db.QueryEvents)
	relay.CountEvents = append(relay.CountEvents, db.CountEvents)
	relay.DeleteEvent = append(relay.DeleteEvent, db.DeleteEvent)
	relay.ReplaceEvent = append(relay.ReplaceEvent, db.ReplaceEvent)
	ln, err := net.Listen("tcp", os.Args[2])
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(os.Stderr, "khatru-lmdb: serving %s on ws://%s\n", os.Args[1], ln.Addr())
	panic(http.Serve(ln, relay))
}
EOF
    (
        cd "$dir" || exit 1
        [ -f go.mod ] || go mod init khatru-lmdb || exit 1
        go get github.com/fiatjaf/khatru@v0.19.1 github.com/fiatjaf/eventstore@v0.16.2 &&
            go mod tidy &&
            CGO_ENABLED=1 go build -trimpath -o "$BIN/khatru-lmdb" .
    )
}

for peer in nostr-rs-relay rnostr nrb-lmdb khatru-lmdb; do
    [[ " $SELECTED " == *" $peer "* ]] || continue
    echo "== $peer (log: $LOGS/$peer.log)"
    start=$(date +%s)
    if "build_${peer//-/_}" >"$LOGS/$peer.log" 2>&1; then
        STATUS[$peer]="built in $(($(date +%s) - start)) s"
    else
        STATUS[$peer]="FAILED: $(grep -m3 -E 'error|cannot|failed' "$LOGS/$peer.log" | tr '\n' ' ' | cut -c1-300)"
    fi
    echo "   ${STATUS[$peer]}"
done

echo "== summary"
for peer in "${!STATUS[@]}"; do echo "$peer: ${STATUS[$peer]}"; done
ls -l "$BIN"
