// Keys and signing against nostr-tools.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ito, pure, hostile, secretKey, copy } from './helpers.mjs'

test('getPublicKey agrees with nostr-tools', () => {
  for (const key of [secretKey, Uint8Array.from({ length: 32 }, (_, i) => 255 - i), pure.generateSecretKey()]) {
    assert.equal(ito.getPublicKey(key), pure.getPublicKey(key))
  }
})

test('generateSecretKey: 32 fresh bytes that make a valid key', () => {
  const a = ito.generateSecretKey()
  const b = ito.generateSecretKey()
  assert.ok(a instanceof Uint8Array)
  assert.equal(a.length, 32)
  assert.notDeepEqual(a, b)
  assert.equal(ito.getPublicKey(a), pure.getPublicKey(a))
})

test('finalizeEvent signs in place; nostr-tools verifies, ids agree', () => {
  for (const { kind, created_at, tags, content } of hostile) {
    const template = { kind, created_at, tags, content }
    const out = ito.finalizeEvent(template, secretKey)
    assert.equal(out, template)
    assert.equal(out.pubkey, pure.getPublicKey(secretKey))
    assert.equal(out.id, pure.getEventHash(out))
    assert.equal(pure.verifyEvent(copy(out)), true)
    assert.equal(ito.verifyEvent(out), true)
    // Fresh auxiliary randomness: a second signature differs, both verify.
    const again = ito.finalizeEvent({ kind, created_at, tags, content }, secretKey)
    assert.equal(again.id, out.id)
    assert.notEqual(again.sig, out.sig)
    assert.equal(pure.verifyEvent(copy(again)), true)
  }
})

test('bad keys and templates throw; the key never appears in a message', () => {
  const t = { kind: 1, created_at: 1, tags: [], content: '' }
  for (const wrong of [null, 'ab'.repeat(32), [1, 2], 5]) {
    assert.throws(() => ito.finalizeEvent({ ...t }, wrong), TypeError)
    assert.throws(() => ito.getPublicKey(wrong), TypeError)
  }
  const zero = new Uint8Array(32)
  const order = Uint8Array.from(Buffer.from('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141', 'hex'))
  for (const bad of [zero, order, new Uint8Array(31), new Uint8Array(33)]) {
    assert.throws(
      () => ito.finalizeEvent({ ...t }, bad),
      (e) => e.field === 'secretKey' && !e.message.includes('ffffffff'),
    )
    assert.throws(() => ito.getPublicKey(bad), (e) => e.field === 'secretKey')
  }
  for (const [bad, field] of [
    [{ ...t, kind: 'x' }, 'kind'],
    [{ ...t, created_at: -5 }, 'created_at'],
    [{ ...t, tags: [[1]] }, 'tags'],
    [{ ...t, content: undefined }, 'content'],
  ]) {
    assert.throws(() => ito.finalizeEvent(bad, secretKey), (e) => e.field === field)
  }
  assert.throws(() => ito.finalizeEvent(5, secretKey), TypeError)
})
