// Starting the real `ito relay serve` on a loopback port, and a seeded
// generator of events signed by nostr-tools (the client's own signer).
import { spawn, execFileSync } from 'node:child_process'
import { mkdtempSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as pure from 'nostr-tools/pure'

/** The `ito` binary: $ITO_BIN, else the workspace's test build. */
export const ITO = process.env.ITO_BIN ?? fileURLToPath(new URL('../../../target/debug/ito', import.meta.url))
if (!existsSync(ITO)) throw new Error(`no ito binary at ${ITO}: build it (cargo test --workspace) or set ITO_BIN`)

export const freshDb = () => join(mkdtempSync(join(tmpdir(), 'ito-relay-js-')), 'db')

/** Starts `ito relay serve --db db --listen 127.0.0.1:0`; resolves with
 * `{ url, child, stop() }` once it prints the address it serves on. */
export function startRelay(db, extra = []) {
  const child = spawn(ITO, ['relay', 'serve', '--db', db, '--listen', '127.0.0.1:0', ...extra], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let log = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`relay did not start: ${log}`)), 20_000)
    child.stderr.on('data', (chunk) => {
      log += chunk
      const m = /on (ws:\/\/\S+)\r?\n/.exec(log) // a whole line: stderr may arrive in pieces
      if (m) {
        clearTimeout(timer)
        resolve({
          url: m[1],
          child,
          log: () => log,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done()
              child.once('exit', done)
              child.kill('SIGTERM')
            }),
        })
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`relay exited (${code}) before serving: ${log}`))
    })
  })
}

/** `ito relay export --db db` as parsed events, one per line. */
export function exportDb(db, filter) {
  const args = ['relay', 'export', '--db', db, ...(filter ? ['--filter', JSON.stringify(filter)] : [])]
  const out = execFileSync(ITO, args, { maxBuffer: 1 << 28 }).toString()
  return out.split('\n').filter(Boolean).map((l) => JSON.parse(l))
}

export function rng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

export const keys = Array.from({ length: 4 }, (_, i) => Uint8Array.from({ length: 32 }, (_, j) => (i * 37 + j + 1) & 0xff))

/** `n` kind-1 events signed by nostr-tools, with distinct contents and
 * `created_at` values that repeat (ties ordered by id). */
export function signedNotes(n, seed, base = 1_700_000_000) {
  const r = rng(seed)
  return Array.from({ length: n }, (_, i) =>
    pure.finalizeEvent(
      {
        kind: 1,
        created_at: base + Math.floor(r() * n),
        tags: [['t', `topic${i % 5}`]],
        content: `note ${seed}/${i} é😀`,
      },
      keys[i % keys.length],
    ),
  )
}

/** NIP-01 order: newest first, ties by lowest id. */
export const nip01Order = (a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
