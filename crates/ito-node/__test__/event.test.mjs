// verifyEvent and getEventHash against nostr-tools.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ito, pure, lines, hostile, hostileSigned, copy } from './helpers.mjs'

test('real events verify in every input form', () => {
  for (const line of lines) {
    const event = JSON.parse(line)
    assert.equal(ito.verifyEvent(event), true)
    assert.equal(ito.verifyEvent(line), true)
    assert.equal(ito.verifyEvent(Buffer.from(line)), true)
    assert.equal(ito.verifyEvent(new TextEncoder().encode(line)), true)
    assert.equal(pure.verifyEvent(copy(event)), true)
  }
})

test('getEventHash agrees with nostr-tools on real and hostile events', () => {
  for (const event of [...lines.map((l) => JSON.parse(l)), ...hostile, ...hostileSigned]) {
    assert.equal(ito.getEventHash(event), pure.getEventHash(event), JSON.stringify(event).slice(0, 80))
  }
  for (const line of lines) {
    const event = JSON.parse(line)
    assert.equal(ito.getEventHash(event), event.id)
  }
})

test('hostile events signed by nostr-tools verify; any change is caught', () => {
  for (const signed of hostileSigned) {
    assert.equal(ito.verifyEvent(signed), true)
    assert.equal(ito.verifyEvent(JSON.stringify(signed)), true)
    const other = copy(signed)
    other.content += 'x'
    assert.equal(ito.verifyEvent(other), false)
    assert.equal(pure.verifyEvent(copy(other)), false)
    const sig = copy(signed)
    sig.sig = (sig.sig[0] === '0' ? '1' : '0') + sig.sig.slice(1)
    assert.equal(ito.verifyEvent(sig), false)
    const tags = copy(signed)
    tags.tags = [...tags.tags, ['t', 'x']]
    assert.equal(ito.verifyEvent(tags), false)
  }
  // The unsigned hostile events carry placeholder ids.
  for (const event of hostile) {
    assert.equal(ito.verifyEvent(event), false)
    assert.equal(ito.verifyEvent(JSON.stringify(event)), false)
  }
})

test('every prefix of an event is refused without a crash', () => {
  for (const line of [lines[0], JSON.stringify(hostileSigned[2])]) {
    const bytes = Buffer.from(line)
    for (let n = 0; n < bytes.length; n++) {
      assert.equal(ito.verifyEvent(bytes.subarray(0, n)), false)
      assert.equal(ito.verifyEvent(line.slice(0, n)), false)
    }
  }
})

test('verifyEvent: nostr-tools contract for wrong values and types', () => {
  const good = JSON.parse(lines[0])
  for (const bad of [
    {},
    [],
    () => {},
    { ...good, id: good.id.toUpperCase() },
    { ...good, kind: '1' },
    { ...good, kind: 1.5 },
    { ...good, kind: 70000 },
    { ...good, created_at: -1 },
    { ...good, created_at: 2 ** 60 },
    { ...good, tags: [['e', 5]] },
    { ...good, tags: 'no' },
    { ...good, tags: [null] },
    { ...good, content: null },
    { ...good, sig: good.sig.slice(2) },
    { ...good, pubkey: undefined },
    Object.defineProperty({ ...good }, 'content', {
      get() {
        throw new Error('getter')
      },
    }),
  ]) {
    assert.equal(ito.verifyEvent(bad), false)
  }
  for (const bad of ['', '{}', '[]', 'null', '{"id":', '\u0000', '😀']) {
    assert.equal(ito.verifyEvent(bad), false)
  }
  for (const wrong of [null, undefined, 5, true, 1n, Symbol('x')]) {
    assert.throws(() => ito.verifyEvent(wrong), TypeError)
    assert.throws(() => pure.verifyEvent(wrong), TypeError)
  }
  assert.equal(ito.verifyEvent(new Uint16Array(4)), false)
})

test('getEventHash throws Errors naming the field, TypeError for non-objects', () => {
  const good = JSON.parse(lines[0])
  const cases = [
    // [event, field, offset, whether nostr-tools throws too]
    [{ ...good, pubkey: 5 }, 'pubkey', 0, true],
    [{ ...good, pubkey: good.pubkey.slice(0, 10) + 'G' + good.pubkey.slice(11) }, 'pubkey', 10, true],
    [{ ...good, pubkey: good.pubkey.toUpperCase() }, 'pubkey', good.pubkey.search(/[a-f]/), true],
    [{ ...good, kind: -1 }, 'kind', 0, false],
    [{ ...good, kind: 65536 }, 'kind', 0, false],
    [{ ...good, created_at: 'now' }, 'created_at', 0, true],
    [{ ...good, created_at: 1.5 }, 'created_at', 0, false],
    [{ ...good, tags: [['e'], 'x'] }, 'tags', 1, true],
    [{ ...good, content: 1 }, 'content', 0, true],
  ]
  for (const [event, field, offset, oracleThrows] of cases) {
    assert.throws(
      () => ito.getEventHash(event),
      (e) => e instanceof Error && e.field === field && e.offset === offset && e.code === 'ERR_ITO_INVALID',
    )
    if (oracleThrows) assert.throws(() => pure.getEventHash(event))
  }
  for (const wrong of [null, undefined, 5, 'x', 1n]) {
    assert.throws(() => ito.getEventHash(wrong), TypeError)
  }
  const thrown = new Error('from a getter')
  const getter = Object.defineProperty({ ...good }, 'kind', {
    get() {
      throw thrown
    },
  })
  assert.throws(() => ito.getEventHash(getter), (e) => e === thrown)
})
