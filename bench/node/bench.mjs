// ito-codecs against nostr-tools (pure JS), nostr-tools with nostr-wasm and
// @rust-nostr/nostr-sdk (wasm): the same events, one process, contenders
// alternated within every round; each figure is the median time per call
// over the rounds, and each ratio is a contender's time over the first
// contender's in the same round (median, and min..max over the rounds).
//
//   cd bench/node && npm ci && node bench.mjs [--quick]
//
// Needs the addon built first: (cd crates/ito-node && npm ci && npm run build).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import * as pure from 'nostr-tools/pure'
import * as nip19 from 'nostr-tools/nip19'
import { matchFilters } from 'nostr-tools/filter'
import * as wasmTools from 'nostr-tools/wasm'
import { initNostrWasm } from 'nostr-wasm'

const require = createRequire(import.meta.url)
const ito = require('../../crates/ito-node/index.js')
const rust = require('@rust-nostr/nostr-sdk')

const quick = process.argv.includes('--quick')
// --only=REGEX runs the sections whose title matches.
const only = new RegExp(process.argv.find((a) => a.startsWith('--only='))?.slice(7) ?? '')
const ROUNDS = quick ? 3 : 9

wasmTools.setNostrWasm(await initNostrWasm())
rust.loadWasmSync()

const lines = readFileSync(new URL('../../data/nostr/events.jsonl', import.meta.url), 'utf8').trim().split('\n')
const events = lines.map((l) => JSON.parse(l))
const copy = (e) => JSON.parse(JSON.stringify(e))

/** Times `op(i)` for i in 0..n once per contender per round, alternating;
 * `setup(name)` (untimed) makes each contender's inputs for one round. */
function compare(title, n, contenders, setup = () => null) {
  if (!only.test(title)) return 0
  const names = Object.keys(contenders)
  const times = Object.fromEntries(names.map((k) => [k, []]))
  let sink = 0
  for (let r = 0; r < ROUNDS + 1; r++) {
    const order = r % 2 ? [...names].reverse() : names
    for (const name of order) {
      const input = setup(name)
      const op = contenders[name]
      const t0 = process.hrtime.bigint()
      for (let i = 0; i < n; i++) if (op(i, input)) sink++
      const t1 = process.hrtime.bigint()
      if (r > 0) times[name].push(Number(t1 - t0) / n) // round 0 warms up
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
  const base = names[0]
  console.log(`\n## ${title} (${n} calls per round, ${ROUNDS} rounds)`)
  for (const name of names) {
    const m = median(times[name])
    let line = `  ${name.padEnd(34)} ${fmt(m).padStart(10)} per call`
    if (name !== base) {
      const ratios = times[name].map((t, i) => t / times[base][i])
      line += `   ${median(ratios).toFixed(1)}× ${base}'s time (rounds ${Math.min(...ratios).toFixed(1)}–${Math.max(...ratios).toFixed(1)}×)`
    }
    console.log(line)
  }
  return sink
}

function fmt(ns) {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`
}

console.log(`# ito-codecs bench: ${new Date().toISOString()}, node ${process.version}, ${os.cpus()[0].model}, ${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`)

// verifyEvent, object input; every contender gets fresh copies (nostr-tools
// caches a verdict on the object it verified).
const N_VERIFY = quick ? 50 : 200
const fresh = () => Array.from({ length: N_VERIFY }, (_, i) => copy(events[i % events.length]))
compare(
  'verifyEvent, one event object',
  N_VERIFY,
  {
    'ito-codecs': (i, xs) => ito.verifyEvent(xs[i]),
    'nostr-tools (pure JS)': (i, xs) => pure.verifyEvent(xs[i]),
    'nostr-tools + nostr-wasm': (i, xs) => wasmTools.verifyEvent(xs[i]),
    '@rust-nostr/nostr-sdk (wasm)': (i, xs) => {
      const e = rust.Event.fromJson(JSON.stringify(xs[i]))
      const ok = e.verify()
      e.free()
      return ok
    },
  },
  fresh,
)

const N_HASH = quick ? 2000 : 20000
compare('getEventHash, one event object', N_HASH, {
  'ito-codecs': (i) => ito.getEventHash(events[i % events.length]),
  'nostr-tools (pure JS)': (i) => pure.getEventHash(events[i % events.length]),
})

// The other design for getEventHash: JSON.stringify in JavaScript, then the
// string crosses into Rust and is parsed there (measured here without the
// hash: an empty FilterIndex parses the event and matches nothing).
const empty = new ito.FilterIndex()
compare('getEventHash designs: fields read natively vs JSON.stringify + native parse (no hash)', N_HASH, {
  'read natively + hash (shipped)': (i) => ito.getEventHash(events[i % events.length]),
  'JSON.stringify + parse, no hash': (i) => empty.matches(JSON.stringify(events[i % events.length])),
  'JSON.stringify alone': (i) => JSON.stringify(events[i % events.length]).length,
})

// finalizeEvent (signing) and NIP-19, once the package has them.
if (ito.finalizeEvent) {
  const key = Uint8Array.from({ length: 32 }, (_, i) => i + 7)
  const template = (i) => {
    const e = events[i % events.length]
    return { kind: e.kind, created_at: e.created_at, tags: e.tags, content: e.content }
  }
  const N = quick ? 50 : 200
  compare('finalizeEvent (sign), one template', N, {
    'ito-codecs': (i) => ito.finalizeEvent(template(i), key).sig.length,
    'nostr-tools (pure JS)': (i) => pure.finalizeEvent(template(i), key).sig.length,
    'nostr-tools + nostr-wasm': (i) => wasmTools.finalizeEvent(template(i), key).sig.length,
  })
}
if (ito.nip19) {
  const npubs = events.map((e) => nip19.npubEncode(e.pubkey))
  const N = quick ? 2000 : 20000
  compare('nip19.decode of an npub', N, {
    'ito-codecs': (i) => ito.nip19.decode(npubs[i % npubs.length]).data.length,
    'nostr-tools': (i) => nip19.decode(npubs[i % npubs.length]).data.length,
  })
  compare('nip19.npubEncode', N, {
    'ito-codecs': (i) => ito.nip19.npubEncode(events[i % events.length].pubkey).length,
    'nostr-tools': (i) => nip19.npubEncode(events[i % events.length].pubkey).length,
  })
  const nevents = events.map((e) => nip19.neventEncode({ id: e.id, relays: ['wss://relay.example'], author: e.pubkey, kind: e.kind }))
  compare('nip19.decode of an nevent (one relay, author, kind)', N, {
    'ito-codecs': (i) => ito.nip19.decode(nevents[i % nevents.length]).type.length,
    'nostr-tools': (i) => nip19.decode(nevents[i % nevents.length]).type.length,
  })
}

// FilterIndex.matches with 1,000 open subscriptions against a loop of
// matchFilters over the same subscriptions.
{
  let seed = 1
  const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32)
  const hex = () => Array.from({ length: 64 }, () => '0123456789abcdef'[Math.floor(rnd() * 16)]).join('')
  const subs = []
  for (let s = 0; s < 1000; s++) {
    const e = events[s % events.length]
    const kind = rnd()
    const f =
      kind < 0.4
        ? { authors: [rnd() < 0.05 ? e.pubkey : hex(), hex()], kinds: [1] }
        : kind < 0.7
          ? { '#p': [hex()], kinds: [1, 7] }
          : kind < 0.9
            ? { ids: [rnd() < 0.05 ? e.id : hex()] }
            : { kinds: [Math.floor(rnd() * 40000) + 2], since: 1600000000 }
    subs.push([`sub${s}`, [f]])
  }
  const index = new ito.FilterIndex()
  for (const [id, filters] of subs) index.add(id, JSON.stringify(filters))
  for (const e of events) {
    const expected = subs.filter(([, f]) => matchFilters(f, e)).map(([id]) => id)
    if (JSON.stringify(index.matches(lines[events.indexOf(e)])) !== JSON.stringify(expected)) throw new Error('FilterIndex disagrees with matchFilters')
  }
  const N = quick ? 500 : 5000
  const buffers = lines.map((l) => Buffer.from(l))
  compare('FilterIndex.matches (event JSON) vs a loop of matchFilters (event object), 1,000 subscriptions', N, {
    'ito-codecs FilterIndex': (i) => index.matches(lines[i % lines.length]).length,
    'ito-codecs FilterIndex, Buffer input': (i) => index.matches(buffers[i % buffers.length]).length,
    'nostr-tools matchFilters loop': (i) => {
      const e = events[i % events.length]
      let hits = 0
      for (const [, f] of subs) if (matchFilters(f, e)) hits++
      return hits
    },
  })
}

// verifyJsonl: 2 threads against 1, and the event loop stays free.
if (only.test('verifyJsonl')) {
  const big = Buffer.from(Array.from({ length: quick ? 2000 : 8000 }, (_, i) => lines[i % lines.length]).join('\n'))
  const events = big.toString().split('\n').length
  const runs = { 1: [], 2: [] }
  let ticks = 0
  for (let r = 0; r < (quick ? 2 : 5); r++) {
    for (const threads of r % 2 ? [2, 1] : [1, 2]) {
      const timer = setInterval(() => ticks++, 1)
      const t0 = performance.now()
      const out = await ito.verifyJsonl(big, { threads })
      runs[threads].push(performance.now() - t0)
      clearInterval(timer)
      if (!out.every((v) => v.ok)) throw new Error('verifyJsonl')
    }
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
  const ratios = runs[1].map((t, i) => t / runs[2][i])
  console.log(`\n## verifyJsonl, ${events} events`)
  console.log(`  1 thread  ${med(runs[1]).toFixed(0)} ms (${((med(runs[1]) * 1e3) / events).toFixed(1)} µs per event)`)
  console.log(`  2 threads ${med(runs[2]).toFixed(0)} ms; speed-up ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}× (median ${med(ratios).toFixed(2)}×); a 1 ms timer fired ${ticks} times meanwhile`)
}
