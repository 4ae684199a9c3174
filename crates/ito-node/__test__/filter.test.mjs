// FilterIndex against a loop of nostr-tools' matchFilters.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { matchFilters } from 'nostr-tools/filter'
import { ito, lines, hostileSigned, hostile } from './helpers.mjs'

const events = [...lines.map((l) => JSON.parse(l)), ...hostileSigned, ...hostile]

// A small deterministic generator (no dependency on Math.random).
function rng(seed) {
  let s = seed >>> 0
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32)
}

function randomFilter(r) {
  const pick = (arr) => arr[Math.floor(r() * arr.length)]
  const f = {}
  const e = pick(events)
  if (r() < 0.3) f.kinds = [pick(events).kind, Math.floor(r() * 10)]
  if (r() < 0.3) f.authors = [e.pubkey]
  if (r() < 0.15) f.ids = [e.id, pick(events).id]
  if (r() < 0.2) f.since = e.created_at - Math.floor(r() * 3)
  if (r() < 0.2) f.until = e.created_at + Math.floor(r() * 3)
  const tag = e.tags.find((t) => t.length > 1 && /^[a-zA-Z]$/.test(t[0]))
  if (tag && r() < 0.4) f[`#${tag[0]}`] = [tag[1], '00'.repeat(32)]
  return f
}

test('matches agrees with matchFilters over random subscriptions', () => {
  const r = rng(7)
  const index = new ito.FilterIndex()
  const subs = new Map()
  for (let i = 0; i < 400; i++) {
    const filters = Array.from({ length: 1 + Math.floor(r() * 3) }, () => randomFilter(r))
    const id = `s${i % 300}` // some ids are reopened: replaced
    index.add(id, JSON.stringify(filters))
    subs.delete(id)
    subs.set(id, filters)
    if (r() < 0.1) {
      const victim = `s${Math.floor(r() * 300)}`
      assert.equal(index.remove(victim), subs.delete(victim))
    }
  }
  assert.equal(index.size, subs.size)
  for (const event of events) {
    const expected = [...subs].filter(([, filters]) => matchFilters(filters, event)).map(([id]) => id)
    assert.deepEqual(index.matches(JSON.stringify(event)), expected)
    assert.deepEqual(index.matches(Buffer.from(JSON.stringify(event))), expected)
  }
})

test('add takes one filter object or an array; bad filters throw with offset', () => {
  const index = new ito.FilterIndex()
  index.add('one', '{"kinds":[1]}')
  index.add('two', Buffer.from(' [{"kinds":[3]}, {"kinds":[1]}]'))
  assert.deepEqual(index.matches(lines[0]), ['one', 'two'])
  for (const [bad, offset] of [
    ['[]', 1],
    ['{"kinds":"x"}', 9],
    ['[{"kinds":[1]} {}]', 15],
    ['{"kinds":[1]', 12],
  ]) {
    assert.throws(
      () => index.add('bad', bad),
      (e) => e instanceof Error && e.offset === offset,
      bad,
    )
  }
  assert.equal(index.size, 2)
  assert.throws(() => index.add('x', 5), TypeError)
  assert.throws(() => index.add(5, '{}'))
})

test('matches throws for what is not an event: every prefix, wrong types', () => {
  const index = new ito.FilterIndex()
  index.add('all', '{}')
  const line = lines[0]
  for (let n = 0; n < line.length; n++) {
    assert.throws(
      () => index.matches(line.slice(0, n)),
      (e) => e instanceof Error && typeof e.offset === 'number' && e.offset <= n,
    )
  }
  assert.throws(
    () => index.matches(line.replace('"kind":1', '"kind":"1"')),
    (e) => e.field === 'kind',
  )
  for (const wrong of [null, 5, {}, [1]]) {
    assert.throws(() => index.matches(wrong), TypeError)
  }
  assert.deepEqual(index.matches(line), ['all'])
  assert.equal(index.remove('all'), true)
  assert.equal(index.remove('all'), false)
  assert.deepEqual(index.matches(line), [])
})
