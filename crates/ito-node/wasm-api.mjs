// The package's API over its wasm build (crates/ito-node/wasm), shared by
// the browser entry (browser.mjs: batches in Web Workers) and the Node
// entry of the wasm build (wasm-node.mjs: batches on the main thread in
// slices). Same names, shapes and errors as the native addon (index.d.ts).
//
// `verifyEvents` and `verifyJsonl` check their arguments synchronously (a
// TypeError is thrown, never a rejected Promise), then hand the work to
// `runner.run(message)`, which answers one message at a time:
//   { op: 'events', items }             -> Uint8Array, 1 per valid event
//   { op: 'jsonl', bytes, firstLine }   -> verdict objects
// Event objects become JSON on this thread (their getters can only run
// here), in slices of at most SLICE_MS, so the page is never blocked long.

/** Events per message to a worker: small enough to spread a batch over
 * every worker and keep each postMessage short. */
const EVENTS_PER_MESSAGE = 256
/** Bytes of JSON lines per message: a few hundred events, tens of
 * milliseconds of work, so the Node entry (one thread) yields often. */
const JSONL_BYTES_PER_MESSAGE = 64 * 1024
/** The longest stretch of work on the calling thread between yields. */
const SLICE_MS = 8

const encoder = new TextEncoder()

/** The answer of the `threads` option, as the native addon checks it. */
function threadCount(options) {
  const threads = options == null ? undefined : options.threads
  if (threads === undefined || threads === null) return undefined
  if (typeof threads !== 'number' || !Number.isInteger(threads) || threads < 1) {
    const error = new Error('threads must be at least 1')
    error.code = 'ERR_ITO_INVALID'
    error.field = 'threads'
    error.offset = 0
    throw error
  }
  return threads
}

/** A string with no lone surrogate (those are refused, as in Node). */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const wellFormed = (s) => (typeof s.isWellFormed === 'function' ? s.isWellFormed() : !LONE.test(s))

const HEX64 = /^[0-9a-f]{64}$/
const NSEC = /^nsec1/i
const MAX_KIND = 65535

/**
 * The NIP-01 serialization `[0,pubkey,created_at,kind,tags,content]` of
 * an event object, written by `JSON.stringify`, or `undefined` when any
 * field is not exactly what the wasm module's own reading accepts (that
 * reading then runs and throws the contract's error). The fields are read
 * once each, in the module's order, so a throwing getter throws the same.
 *
 * `JSON.stringify` escapes as NIP-01 does (`"`, `\\`, `\b\f\n\r\t`, other
 * control characters as `\u00xx`, nothing else) once lone surrogates are
 * ruled out; the contract tests compare the ids with nostr-tools' on
 * hostile and random Unicode text.
 */
function eventHashText(event) {
  if (typeof event !== 'object' || event === null) return undefined
  // Each field checked before the next is read, as the module does: the
  // first bad field or throwing getter is the same on both paths.
  const pubkey = event.pubkey
  if (typeof pubkey !== 'string' || !HEX64.test(pubkey)) return undefined
  const created_at = event.created_at
  if (!Number.isInteger(created_at) || created_at < 0 || created_at > Number.MAX_SAFE_INTEGER) return undefined
  const kind = event.kind
  if (!Number.isInteger(kind) || kind < 0 || kind > MAX_KIND) return undefined
  const tags = event.tags
  if (!Array.isArray(tags) || tags.toJSON !== undefined) return undefined
  for (let i = 0; i < tags.length; i++) {
    const tag = tags[i]
    if (!Array.isArray(tag) || tag.toJSON !== undefined) return undefined
    for (let j = 0; j < tag.length; j++) {
      const item = tag[j]
      if (typeof item !== 'string' || !wellFormed(item)) return undefined
    }
  }
  const content = event.content
  if (typeof content !== 'string' || !wellFormed(content)) return undefined
  return JSON.stringify([0, pubkey, created_at, kind, tags, content])
}

/** Waits for the next macrotask, so the page can paint and handle input. */
export const nextTask =
  typeof setImmediate === 'function'
    ? () => new Promise((resolve) => setImmediate(resolve))
    : () =>
        new Promise((resolve) => {
          const channel = new MessageChannel()
          channel.port1.onmessage = () => {
            channel.port1.close()
            resolve()
          }
          channel.port2.postMessage(null)
        })

/** Runs one runner message against an initialised glue module (what a
 * worker does, and what the Node entry does on its own thread). */
export function handle(glue, message) {
  if (message.op === 'events') return glue.verifyBatch(message.items)
  if (message.op === 'jsonl') return glue.verifyJsonlBatch(message.bytes, message.firstLine)
  throw new Error(`unknown batch operation ${message.op}`)
}

/** Splits JSON-lines bytes into pieces of about `size` bytes at line
 * ends, each with the number of its first line. */
function splitLines(bytes, size) {
  const out = []
  let start = 0
  let line = 1
  while (start < bytes.length) {
    let end = Math.min(bytes.length, start + size)
    if (end < bytes.length) {
      const nl = bytes.indexOf(10, end - 1)
      end = nl < 0 ? bytes.length : nl + 1
    }
    const piece = bytes.subarray(start, end)
    out.push({ bytes: piece, firstLine: line })
    for (let i = piece.indexOf(10); i >= 0; i = piece.indexOf(10, i + 1)) line++
    start = end
  }
  return out
}

/**
 * The package's functions over `glue` (the initialised wasm-bindgen
 * module), with batches run by `runner` ({ run(message, workerIndex),
 * threads }).
 */
export function api(glue, runner) {
  /** nip19.decode: the module writes the answer as JSON (one string out),
   * parsed here; `nsec` keeps the byte-building path. */
  function decode(text) {
    if (typeof text !== 'string' || NSEC.test(text)) return glue.nip19Decode(text)
    const out = JSON.parse(glue.nip19DecodeJson(text))
    if (out.type === 'nevent') {
      if (!('author' in out.data)) out.data.author = undefined
      if (!('kind' in out.data)) out.data.kind = undefined
    }
    return out
  }

  const nip19 = Object.freeze({
    decode,
    npubEncode: glue.nip19NpubEncode,
    nsecEncode: glue.nip19NsecEncode,
    noteEncode: glue.nip19NoteEncode,
    nprofileEncode: glue.nip19NprofileEncode,
    neventEncode: glue.nip19NeventEncode,
    naddrEncode: glue.nip19NaddrEncode,
  })

  function verifyEvents(events, options) {
    if (!Array.isArray(events)) throw new TypeError('verifyEvents: expected an array')
    const threads = Math.min(threadCount(options) ?? runner.threads, runner.threads)
    for (let i = 0; i < events.length; i++) {
      const e = events[i]
      if (typeof e !== 'string' && (typeof e !== 'object' || e === null)) {
        throw new TypeError(`verifyEvents: element ${i} is not an event object, a JSON string or a Uint8Array`)
      }
    }
    return verifyEventsLater(events.slice(), threads)
  }

  async function verifyEventsLater(events, threads) {
    const answers = new Array(events.length)
    const pending = []
    let sliceStart = performance.now()
    for (let start = 0, k = 0; start < events.length; start += EVENTS_PER_MESSAGE, k++) {
      const items = []
      for (const e of events.slice(start, start + EVENTS_PER_MESSAGE)) {
        if (typeof e === 'string') items.push(wellFormed(e) ? e : null)
        else if (e instanceof Uint8Array) items.push(e.slice())
        else items.push(glue.eventJson(e) ?? null)
      }
      const at = start
      pending.push(
        runner.run({ op: 'events', items }, k % threads).then((verdicts) => {
          for (let i = 0; i < verdicts.length; i++) answers[at + i] = verdicts[i] === 1
        }),
      )
      if (performance.now() - sliceStart > SLICE_MS) {
        await nextTask()
        sliceStart = performance.now()
      }
    }
    await Promise.all(pending)
    return answers
  }

  function verifyJsonl(buffer, options) {
    let bytes
    if (buffer instanceof Uint8Array) bytes = buffer.slice()
    else if (typeof buffer === 'string') bytes = encoder.encode(buffer)
    else throw new TypeError('verifyJsonl: expected a Uint8Array or a string')
    const threads = Math.min(threadCount(options) ?? runner.threads, runner.threads)
    const size = Math.min(JSONL_BYTES_PER_MESSAGE, Math.ceil(bytes.length / threads))
    const pieces = splitLines(bytes, Math.max(1, size))
    return Promise.all(pieces.map((piece, k) => runner.run({ op: 'jsonl', ...piece }, k % threads))).then((parts) =>
      parts.flat(),
    )
  }

  function getEventHash(event) {
    const text = eventHashText(event)
    return text === undefined ? glue.getEventHash(event) : glue.sha256Hex(text)
  }

  return {
    verifyEvent: glue.verifyEvent,
    getEventHash,
    finalizeEvent: glue.finalizeEvent,
    getPublicKey: glue.getPublicKey,
    generateSecretKey: glue.generateSecretKey,
    FilterIndex: glue.FilterIndex,
    nip19,
    verifyEvents,
    verifyJsonl,
  }
}
