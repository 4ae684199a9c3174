// Shared test data: the real signed events and the hostile-content events
// of data/nostr, and nostr-tools as the oracle.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import * as pure from 'nostr-tools/pure'

const require = createRequire(import.meta.url)
/** The build under test: the native addon, or with ITO_BUILD=wasm the
 * wasm build's Node entry (scripts/browser-test.sh runs both; the browser
 * runs these files with browser/helpers.mjs in place of this one). */
export const ito = process.env.ITO_BUILD === 'wasm' ? await import('../wasm-node.mjs') : require('../index.js')
export { pure }

const data = (name) => fileURLToPath(new URL(`../../../data/nostr/${name}`, import.meta.url))

/** The signed events of events.jsonl, as JSON lines. */
export const lines = readFileSync(data('events.jsonl'), 'utf8').trim().split('\n')

/** Events with hostile content (control bytes, quotes, CJK, emoji, U+2028,
 * long strings), unsigned: their ids and signatures are placeholders. */
export const hostile = JSON.parse(readFileSync(data('relay_vectors.json'), 'utf8')).cases.map((c) =>
  JSON.parse(c.event),
)

/** A fixed secret key, so signed test events are the same on every run. */
export const secretKey = Uint8Array.from({ length: 32 }, (_, i) => i + 1)

/** The hostile events signed by nostr-tools (the oracle signer). */
export const hostileSigned = hostile.map(({ kind, created_at, tags, content }) =>
  pure.finalizeEvent({ kind, created_at, tags, content }, secretKey),
)

/** A fresh copy of an event object (nostr-tools caches verdicts on it). */
export const copy = (event) => JSON.parse(JSON.stringify(event))
