// kill -9 during ingest, at 20 seeded moments: after every restart, each
// event that got `OK true` is served, the database opens with no repair
// step, and `ito relay export` holds exactly the acknowledged events plus,
// at most, some that were in flight (sent, committed, not yet answered).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import WebSocket from 'ws'
import { startRelay, freshDb, signedNotes, exportDb, rng } from './helpers.mjs'

const CYCLES = 20
const PER_CYCLE = 150

test('kill -9 during ingest loses no acknowledged event', { timeout: 240_000 }, async () => {
  const db = freshDb()
  const r = rng(36)
  const sent = new Map() // id -> event
  const acked = new Set()
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const server = await startRelay(db)
    // Everything acknowledged before is still there after the restart.
    const stored = await idsOf(server.url, [...acked])
    for (const id of acked) assert.ok(stored.has(id), `cycle ${cycle}: acknowledged ${id} lost`)

    const events = signedNotes(PER_CYCLE, 1000 + cycle)
    for (const e of events) sent.set(e.id, JSON.parse(JSON.stringify(e))) // no nostr-tools symbols
    const ws = await open(server.url)
    ws.on('message', (data) => {
      const msg = JSON.parse(data)
      if (msg[0] === 'OK' && msg[2] === true) acked.add(msg[1])
    })
    // Pipelined: every EVENT at once, then the kill at a seeded moment
    // (0-120 ms: before the first commit, mid-stream or after the last).
    for (const e of events) ws.send(JSON.stringify(['EVENT', e]))
    await new Promise((res) => setTimeout(res, Math.floor(r() * 120)))
    server.child.kill('SIGKILL')
    await new Promise((res) => server.child.once('exit', res))
    ws.terminate()
  }
  assert.ok(acked.size > 0, 'some events were acknowledged before a kill')
  assert.ok(acked.size < sent.size, 'some kills landed mid-ingest')
  // The database opens as it is, and holds acked ⊆ stored ⊆ sent, each
  // stored event byte-for-byte what was sent.
  const exported = exportDb(db)
  const ids = new Set(exported.map((e) => e.id))
  for (const id of acked) assert.ok(ids.has(id), `acknowledged ${id} missing from export`)
  for (const e of exported) assert.deepEqual(e, sent.get(e.id), 'exported event is one that was sent')
  assert.equal(ids.size, exported.length, 'no event exported twice')
})

function open(url) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

/** The ids among `ids` the relay serves (one REQ per 500 ids). */
async function idsOf(url, ids) {
  const found = new Set()
  if (ids.length === 0) return found
  const ws = await open(url)
  const chunks = []
  for (let i = 0; i < ids.length; i += 500) chunks.push(ids.slice(i, i + 500))
  await new Promise((resolve) => {
    let pending = chunks.length
    ws.on('message', (data) => {
      const msg = JSON.parse(data)
      if (msg[0] === 'EVENT') found.add(msg[2].id)
      if (msg[0] === 'EOSE' && --pending === 0) resolve()
    })
    chunks.forEach((c, i) => ws.send(JSON.stringify(['REQ', `q${i}`, { ids: c }])))
  })
  ws.close()
  return found
}
