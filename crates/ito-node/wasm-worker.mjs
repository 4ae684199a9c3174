// A Web Worker of the browser build: its own instance of the wasm module
// (compiled once by the page and posted here), answering the batch
// messages of wasm-api.mjs one at a time, off the page's thread.
import { initSync } from './dist-wasm/ito_wasm.js'
import * as glue from './dist-wasm/ito_wasm.js'
import { handle } from './wasm-api.mjs'

self.onmessage = ({ data }) => {
  if (data.module) {
    initSync({ module: data.module })
    return
  }
  try {
    const result = handle(glue, data)
    self.postMessage({ id: data.id, result }, result instanceof Uint8Array ? [result.buffer] : [])
  } catch (error) {
    self.postMessage({ id: data.id, error: String(error && error.stack ? error.stack : error) })
  }
}
