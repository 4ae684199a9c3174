// verifyEvents and verifyJsonl: input order, concurrency, the event loop
// stays free.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ito, lines, hostileSigned, hostile } from './helpers.mjs'

const events = [...lines.map((l) => JSON.parse(l)), ...hostileSigned]

test('verifyEvents answers in input order, in every input form', async () => {
  const mixed = []
  const expected = []
  for (let i = 0; i < 300; i++) {
    const e = events[i % events.length]
    const form = i % 4
    if (i % 7 === 3) {
      mixed.push({ ...e, content: e.content + '!' })
      expected.push(false)
    } else if (i % 11 === 5) {
      mixed.push(hostile[i % hostile.length])
      expected.push(false)
    } else {
      mixed.push(form === 0 ? e : form === 1 ? JSON.stringify(e) : form === 2 ? Buffer.from(JSON.stringify(e)) : { ...e })
      expected.push(true)
    }
  }
  mixed.push({}, 'not json', new Uint8Array(0))
  expected.push(false, false, false)
  for (const threads of [undefined, 1, 2, 3]) {
    assert.deepEqual(await ito.verifyEvents(mixed, { threads }), expected)
  }
  assert.deepEqual(await ito.verifyEvents([]), [])
})

test('verifyJsonl: one verdict per event line, with offset and field', async () => {
  const good = JSON.stringify(hostileSigned[1])
  const buf = Buffer.from([good, '', '  ', '{"id":1}', lines[0], good.replace('"kind":', '"kind":-')].join('\n'))
  const out = await ito.verifyJsonl(buf, { threads: 2 })
  assert.deepEqual(
    out.map((v) => [v.line, v.status, v.ok]),
    [
      [1, 'ok', true],
      [4, 'invalid', false],
      [5, 'ok', true],
      [6, 'invalid', false],
    ],
  )
  assert.equal(out[1].field, 'id')
  assert.equal(out[1].offset, 6)
  assert.equal(out[3].field, 'kind')
  assert.match(out[3].message, /kind/)
  assert.deepEqual(await ito.verifyJsonl(buf.toString()), await ito.verifyJsonl(buf))
})

test('verifyJsonl numbers lines right across a buffer larger than any piece', async () => {
  // About 1.5 MB: the wasm build cuts it into pieces at line ends, and
  // every event line is followed by a blank one, so pieces start with one.
  const parts = []
  const expected = []
  for (let i = 0; i < 3000; i++) {
    const bad = i % 97 === 5
    parts.push(bad ? '{"id":' : JSON.stringify(events[i % events.length]), i % 5 === 0 ? '   ' : '')
    expected.push([2 * i + 1, !bad])
  }
  for (const threads of [1, 3]) {
    const out = await ito.verifyJsonl(Buffer.from(parts.join('\n')), { threads })
    assert.deepEqual(out.map((v) => [v.line, v.ok]), expected)
  }
})

test('every prefix of a JSON-lines buffer gives verdicts, never a crash', async () => {
  const text = lines.slice(0, 2).join('\n')
  const bytes = Buffer.from(text)
  const all = []
  for (let n = 0; n < bytes.length; n += 7) all.push(ito.verifyJsonl(bytes.subarray(0, n)))
  for (const verdicts of await Promise.all(all)) {
    for (const v of verdicts.slice(1)) assert.equal(v.ok, false)
  }
})

test('wrong types throw TypeError before any work', () => {
  for (const wrong of [null, 5, 'x', {}, Buffer.from('[]')]) {
    assert.throws(() => ito.verifyEvents(wrong), TypeError)
  }
  assert.throws(() => ito.verifyEvents([lines[0], 5]), TypeError)
  assert.throws(() => ito.verifyEvents([null]), TypeError)
  for (const wrong of [null, 5, {}, [1]]) {
    assert.throws(() => ito.verifyJsonl(wrong), TypeError)
  }
  assert.throws(() => ito.verifyJsonl('', { threads: 0 }), (e) => e.field === 'threads')
})

test('concurrent batch calls each get their own answers', async () => {
  const calls = []
  const expected = []
  for (let k = 0; k < 12; k++) {
    const batch = events.slice(k % events.length).concat(events.slice(0, k % events.length))
    const broken = k % 3 === 0 ? batch.map((e, i) => (i === k % batch.length ? { ...e, sig: e.sig.replace(/^./, e.sig[0] === 'a' ? 'b' : 'a') } : e)) : batch
    calls.push(ito.verifyEvents(broken, { threads: 1 + (k % 3) }))
    expected.push(broken.map((_, i) => !(k % 3 === 0 && i === k % batch.length)))
    const jsonl = Buffer.from(batch.map((e) => JSON.stringify(e)).join('\n'))
    calls.push(ito.verifyJsonl(jsonl).then((v) => v.map((x) => x.ok)))
    expected.push(batch.map(() => true))
  }
  assert.deepEqual(await Promise.all(calls), expected)
})

test('a timer keeps firing while a batch runs', async () => {
  const big = Buffer.from(Array.from({ length: 3000 }, (_, i) => JSON.stringify(events[i % events.length])).join('\n'))
  let ticks = 0
  const timer = setInterval(() => ticks++, 1)
  const started = performance.now()
  const verdicts = await ito.verifyJsonl(big)
  const elapsed = performance.now() - started
  clearInterval(timer)
  assert.equal(verdicts.length, 3000)
  assert.ok(verdicts.every((v) => v.ok))
  // The batch takes tens of milliseconds at least; a blocked event loop
  // would see no tick at all.
  assert.ok(ticks >= Math.min(5, elapsed / 10), `${ticks} ticks in ${elapsed.toFixed(0)} ms`)
})
