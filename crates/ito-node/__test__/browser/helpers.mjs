// __test__/helpers.mjs for the browser (contract.html maps the one to the
// other): the same data and oracle, with the package from the tarball
// installed under target/browser/install (its `browser` entry) and the
// data files fetched from the server.
import * as ito from 'ito-codecs'
import * as pure from 'nostr-tools/pure'

export { ito, pure }

const data = async (name) => {
  const response = await fetch(`/data/nostr/${name}`)
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`)
  return response.text()
}

/** The signed events of events.jsonl, as JSON lines. */
export const lines = (await data('events.jsonl')).trim().split('\n')

/** Events with hostile content, unsigned (placeholder ids and signatures). */
export const hostile = JSON.parse(await data('relay_vectors.json')).cases.map((c) => JSON.parse(c.event))

/** A fixed secret key, so signed test events are the same on every run. */
export const secretKey = Uint8Array.from({ length: 32 }, (_, i) => i + 1)

/** The hostile events signed by nostr-tools (the oracle signer). */
export const hostileSigned = hostile.map(({ kind, created_at, tags, content }) =>
  pure.finalizeEvent({ kind, created_at, tags, content }, secretKey),
)

/** A fresh copy of an event object (nostr-tools caches verdicts on it). */
export const copy = (event) => JSON.parse(JSON.stringify(event))
