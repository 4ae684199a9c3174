// NIP-19 against nostr-tools, round trips both ways.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import * as theirs from 'nostr-tools/nip19'
import { ito, lines, secretKey } from './helpers.mjs'

const events = lines.map((l) => JSON.parse(l))
const relays = [[], ['wss://relay.example'], ['wss://a.example', 'wss://b.example/path?q=1', 'wss://é.example']]

test('npub, note, nsec: same strings as nostr-tools, both decode each', () => {
  for (const e of events) {
    const npub = ito.nip19.npubEncode(e.pubkey)
    assert.equal(npub, theirs.npubEncode(e.pubkey))
    assert.deepEqual(ito.nip19.decode(npub), theirs.decode(npub))
    assert.deepEqual(ito.nip19.decode(npub.toUpperCase()), { type: 'npub', data: e.pubkey })
    const note = ito.nip19.noteEncode(e.id)
    assert.equal(note, theirs.noteEncode(e.id))
    assert.deepEqual(ito.nip19.decode(note), theirs.decode(note))
  }
  const nsec = ito.nip19.nsecEncode(secretKey)
  assert.equal(nsec, theirs.nsecEncode(secretKey))
  const decoded = ito.nip19.decode(nsec)
  assert.equal(decoded.type, 'nsec')
  assert.ok(decoded.data instanceof Uint8Array)
  assert.deepEqual([...decoded.data], [...secretKey])
})

test('nprofile, nevent, naddr: each decodes the other library\'s encoding to the same pointer', () => {
  for (const e of events) {
    for (const r of relays) {
      const pointers = [
        ['nprofile', { pubkey: e.pubkey, relays: r }],
        ['nevent', { id: e.id, relays: r, author: e.pubkey, kind: e.kind }],
        ['nevent', { id: e.id, relays: r, author: undefined, kind: undefined }],
        ['naddr', { identifier: e.content.slice(0, 40), pubkey: e.pubkey, kind: 30023, relays: r }],
      ]
      for (const [type, data] of pointers) {
        const encode = `${type}Encode`
        const ours = ito.nip19[encode](data)
        const other = theirs[encode](data)
        assert.deepEqual(theirs.decode(ours), { type, data }, `${type} ours`)
        assert.deepEqual(ito.nip19.decode(other), theirs.decode(other), `${type} theirs`)
        assert.deepEqual(ito.nip19.decode(ours), { type, data })
      }
    }
  }
})

test('bad strings throw Errors with an offset; wrong types TypeError', () => {
  const npub = ito.nip19.npubEncode(events[0].pubkey)
  for (let n = 0; n < npub.length; n++) {
    assert.throws(() => ito.nip19.decode(npub.slice(0, n)), (e) => e instanceof Error && typeof e.offset === 'number')
  }
  const flipped = npub.slice(0, 10) + (npub[10] === 'q' ? 'p' : 'q') + npub.slice(11)
  assert.throws(() => ito.nip19.decode(flipped), /checksum/)
  assert.throws(() => ito.nip19.decode(npub.slice(0, 5) + npub[5].toUpperCase() + npub.slice(6)), (e) => e.offset === 5)
  for (const wrong of [null, 5, {}, Buffer.from(npub)]) {
    assert.throws(() => ito.nip19.decode(wrong), TypeError)
    assert.throws(() => ito.nip19.npubEncode(wrong), TypeError)
  }
  assert.throws(() => ito.nip19.npubEncode('ab'), (e) => e.field === 'pubkey')
  assert.throws(() => ito.nip19.nsecEncode(new Uint8Array(31)), (e) => e.field === 'secretKey')
  assert.throws(() => ito.nip19.nsecEncode('x'), TypeError)
  const pk = events[0].pubkey
  for (const encode of ['nprofileEncode', 'neventEncode', 'naddrEncode']) {
    for (const wrong of [null, undefined, 5, 'x']) assert.throws(() => ito.nip19[encode](wrong), TypeError)
  }
  for (const [encode, pointer, field] of [
    ['nprofileEncode', {}, 'pubkey'],
    ['nprofileEncode', { pubkey: 5 }, 'pubkey'],
    ['nprofileEncode', { pubkey: pk, relays: 'wss://x' }, 'relays'],
    ['nprofileEncode', { pubkey: pk, relays: ['wss://x', 5] }, 'relays'],
    ['neventEncode', { id: pk, author: 'xx' }, 'author'],
    ['neventEncode', { id: pk, kind: -1 }, 'kind'],
    ['naddrEncode', { identifier: 'x', pubkey: pk }, 'kind'],
    ['naddrEncode', { pubkey: pk, kind: 1 }, 'identifier'],
  ]) {
    assert.throws(() => ito.nip19[encode](pointer), (e) => e.field === field && e.code === 'ERR_ITO_INVALID', `${encode} ${field}`)
  }
  // A relay list too long for TLV records is refused, not cut.
  assert.throws(() => ito.nip19.nprofileEncode({ pubkey: pk, relays: ['wss://' + 'r'.repeat(300)] }), Error)
})
