// The part of Node's `Buffer` the contract tests use (`from` a string,
// hex or bytes; `byteLength`; `toString`), installed as a global before
// the test files load: a Uint8Array subclass, as Node's Buffer is.
const encoder = new TextEncoder()
const decoder = new TextDecoder()

class Buffer extends Uint8Array {
  static from(value, encoding) {
    if (typeof value === 'string' && encoding === 'hex') {
      const out = new Buffer(value.length >> 1)
      for (let i = 0; i < out.length; i++) out[i] = parseInt(value.slice(2 * i, 2 * i + 2), 16)
      return out
    }
    const bytes = typeof value === 'string' ? encoder.encode(value) : Uint8Array.from(value)
    const out = new Buffer(bytes.length)
    out.set(bytes)
    return out
  }

  static byteLength(s) {
    return encoder.encode(s).length
  }

  toString() {
    return decoder.decode(this)
  }
}

globalThis.Buffer = Buffer
