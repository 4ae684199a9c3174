#!/usr/bin/env bash
# The browser build of the `ito-codecs` npm package, built and tested as a
# user gets it:
#   1. scripts/browser-build.sh: the wasm build into crates/ito-node/dist-wasm/;
#   2. the package's contract tests (crates/ito-node/__test__) against the
#      wasm build under Node (ITO_BUILD=wasm; the native addon's run is
#      the node step of scripts/test.sh);
#   3. `npm pack` of the package and, as a release makes it, of this
#      platform's addon package (npm/<platform>/ with the built .node),
#      both tarballs installed into an empty folder (target/browser/install),
#      and `require`/`import` under Node: the native addon (`node`
#      condition) and `ito-codecs/wasm`;
#   4. headless Chromium (Debian's, through playwright-core) on the pages
#      of crates/ito-node/__test__/browser, loading that installed package
#      (scripts/browser-test.mjs): the contract tests again, a JSON-lines
#      file checked with progress and a screenshot, the bench page (quick).
# Needs the native addon built first (crates/ito-node/ito-codecs.*.node:
# `npx napi build --platform --release`, the node step of scripts/test.sh)
# and installs the rest when missing (chromium by apt-get; the npm
# devDependencies by `npm ci`); fails, never skips.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
pkg=$root/crates/ito-node
out=$root/target/browser
mkdir -p "$out"

if ! [ -x /usr/bin/chromium ]; then
  echo "   installing chromium (apt-get)"
  sudo=()
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then sudo=(sudo); fi
  apt_install() {
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -q --no-install-recommends chromium >/dev/null
  }
  if ! apt_install; then
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
    apt_install
  fi
fi
addon=$(ls "$pkg"/ito-codecs.*.node 2>/dev/null | head -n 1)
if [ -z "$addon" ]; then
  echo "no native addon in crates/ito-node: run 'npx napi build --platform --release' there first" >&2
  exit 1
fi
platform=$(basename "$addon" .node)
platform=${platform#ito-codecs.}
[ -d "$pkg/node_modules/playwright-core" ] || (cd "$pkg" && npm ci --no-audit --no-fund --loglevel=error)

echo "   wasm build (scripts/browser-build.sh)"
bash scripts/browser-build.sh

echo "   contract tests against the wasm build under Node"
(cd "$pkg" && ITO_BUILD=wasm node --test --test-reporter=dot __test__/)

# The oracles for the pages, one ES module each (their own imports bundled).
oracle() {
  echo "export * from '$1'" |
    (cd "$pkg" && npx esbuild --bundle --format=esm --log-level=warning --outfile="$out/oracles/$2.mjs")
}
oracle nostr-tools/pure nostr-tools
oracle nostr-tools/nip19 nostr-tools-nip19
oracle nostr-tools/filter nostr-tools-filter
oracle nostr-wasm nostr-wasm

echo "   npm pack, install into an empty folder, require/import under Node"
rm -rf "$out/install" "$out/platform" "$out"/ito-codecs-*.tgz
(cd "$pkg" && npm pack --silent --pack-destination "$out" >/dev/null)
cp -r "$pkg/npm/$platform" "$out/platform"
cp "$addon" "$out/platform/"
(cd "$out/platform" && npm pack --silent --pack-destination "$out" >/dev/null)
mkdir -p "$out/install"
echo '{ "private": true }' >"$out/install/package.json"
(cd "$out/install" && npm install --no-audit --no-fund --loglevel=error "$out"/ito-codecs-*.tgz)
(
  cd "$out/install"
  line=$(head -n 1 "$root/data/nostr/events.jsonl")
  LINE=$line node -e '
    const ito = require("ito-codecs")
    if (ito.verifyEvent(process.env.LINE) !== true) throw new Error("require: verifyEvent")
  '
  LINE=$line node --input-type=module -e '
    import { verifyEvent, getEventHash } from "ito-codecs"
    import * as wasm from "ito-codecs/wasm"
    const e = JSON.parse(process.env.LINE)
    if (verifyEvent(e) !== true || wasm.verifyEvent(e) !== true) throw new Error("import: verifyEvent")
    if (getEventHash(e) !== e.id || wasm.getEventHash(e) !== e.id) throw new Error("import: getEventHash")
    const [v] = await wasm.verifyEvents([e])
    if (v !== true) throw new Error("import: verifyEvents")
  '
)

echo "   headless Chromium (scripts/browser-test.mjs)"
node scripts/browser-test.mjs
