// A real client: nostr-tools' Relay and SimplePool (over the `ws` package,
// as a Node program uses them) against `ito relay serve` on loopback:
// publish, query, live delivery, close, reconnect, refusals.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import WebSocket from 'ws'
import * as pure from 'nostr-tools/pure'
import { Relay, useWebSocketImplementation } from 'nostr-tools/relay'
import { SimplePool, useWebSocketImplementation as usePoolWebSocket } from 'nostr-tools/pool'
import { startRelay, freshDb, signedNotes, keys, nip01Order, exportDb } from './helpers.mjs'

useWebSocketImplementation(WebSocket)
usePoolWebSocket(WebSocket)

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** Every event of one subscription up to EOSE. */
function query(relay, filters) {
  return new Promise((resolve) => {
    const got = []
    const sub = relay.subscribe(filters, {
      onevent: (e) => got.push(e),
      oneose: () => {
        sub.close()
        resolve(got)
      },
    })
  })
}

test('publish, query, live events, close and reconnect with nostr-tools', async () => {
  const db = freshDb()
  const server = await startRelay(db)
  try {
    const events = signedNotes(60, 1)
    const relay = await Relay.connect(server.url)
    for (const e of events) await relay.publish(e) // resolves on OK true
    // A duplicate is accepted again (OK true, "duplicate:").
    assert.match(await relay.publish(events[0]), /^duplicate:/)

    // Stored events: newest first, ties by lowest id, `limit` of them.
    const want = [...events].sort(nip01Order)
    assert.deepEqual((await query(relay, [{ kinds: [1], limit: 25 }])).map((e) => e.id), want.slice(0, 25).map((e) => e.id))
    const byAuthor = pure.getPublicKey(keys[1])
    assert.deepEqual(
      (await query(relay, [{ authors: [byAuthor] }])).map((e) => e.id),
      want.filter((e) => e.pubkey === byAuthor).map((e) => e.id),
    )
    assert.deepEqual(
      (await query(relay, [{ '#t': ['topic3'], limit: 5 }])).map((e) => e.id),
      want.filter((e) => e.tags[0][1] === 'topic3').slice(0, 5).map((e) => e.id),
    )

    // Live: a subscription open past EOSE sees an event another client
    // publishes; after CLOSE it sees nothing more.
    const live = []
    let eose = false
    const sub = relay.subscribe([{ kinds: [1], '#t': ['live'] }], {
      onevent: (e) => live.push(e),
      oneose: () => (eose = true),
    })
    const other = await Relay.connect(server.url)
    while (!eose) await sleep(5)
    const first = pure.finalizeEvent({ kind: 1, created_at: 1_800_000_000, tags: [['t', 'live']], content: 'one' }, keys[2])
    await other.publish(first)
    for (let i = 0; i < 200 && live.length === 0; i++) await sleep(5)
    assert.deepEqual(live.map((e) => e.id), [first.id])
    sub.close()
    await sleep(50)
    const second = pure.finalizeEvent({ kind: 1, created_at: 1_800_000_001, tags: [['t', 'live']], content: 'two' }, keys[2])
    await other.publish(second)
    await sleep(150)
    assert.equal(live.length, 1, 'no event after CLOSE')

    // Refusals come back as rejected publishes with the NIP-01 prefix.
    const forged = { ...events[1], content: 'changed' }
    await assert.rejects(relay.publish(forged), /invalid:/)
    relay.close()
    other.close()

    // Reconnect through a pool: everything acknowledged is there.
    const pool = new SimplePool()
    const all = await pool.querySync([server.url], { kinds: [1] })
    assert.equal(all.length, events.length + 2)
    pool.close([server.url])
  } finally {
    await server.stop()
  }
  // After SIGTERM the database holds exactly what was acknowledged.
  assert.equal(exportDb(db).length, 62)
})

test('a relay restarted on the same database serves what it acknowledged', async () => {
  const db = freshDb()
  const events = signedNotes(30, 2)
  let server = await startRelay(db)
  const relay = await Relay.connect(server.url)
  await Promise.all(events.map((e) => relay.publish(e)))
  relay.close()
  await server.stop()
  server = await startRelay(db)
  try {
    const again = await Relay.connect(server.url)
    const got = await query(again, [{ ids: events.map((e) => e.id) }])
    assert.deepEqual(got.map((e) => e.id), [...events].sort(nip01Order).map((e) => e.id))
    again.close()
  } finally {
    await server.stop()
  }
})

test('NIP-42 with nostr-tools: auth-required, auth(), direct messages to their parties only', async () => {
  const server = await startRelay(freshDb(), ['--auth'])
  const [alice, bob, carol] = keys
  const dm = pure.finalizeEvent(
    { kind: 4, created_at: Math.floor(Date.now() / 1000), tags: [['p', pure.getPublicKey(bob)]], content: 'hi' },
    alice,
  )
  const connect = async () => {
    const relay = await Relay.connect(server.url)
    for (let i = 0; i < 100 && !relay.challenge; i++) await sleep(10) // the challenge comes on connect
    assert.match(relay.challenge, /^[0-9a-f]{32}$/)
    return relay
  }
  try {
    const anon = await connect()
    await anon.publish(dm) // publishing needs no AUTH
    const reason = await new Promise((resolve) => {
      anon.subscribe([{ kinds: [4] }], { onclose: resolve })
    })
    assert.match(reason, /^auth-required: /)
    anon.close()

    const seen = async (key) => {
      const relay = await connect()
      await relay.auth((template) => pure.finalizeEvent(template, key)) // resolves on OK true
      const got = await query(relay, [{ kinds: [4] }])
      relay.close()
      return got.map((e) => e.id)
    }
    assert.deepEqual(await seen(bob), [dm.id])
    assert.deepEqual(await seen(alice), [dm.id])
    assert.deepEqual(await seen(carol), [])
  } finally {
    await server.stop()
  }
})
