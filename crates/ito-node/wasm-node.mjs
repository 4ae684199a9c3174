// The wasm build of `ito-codecs` under Node (`import 'ito-codecs/wasm'`),
// for platforms without a prebuilt native addon. Same API; `verifyEvents`
// and `verifyJsonl` run on the main thread in slices of 256 events or 64
// KiB of lines, each after a turn of the event loop.
import { readFileSync } from 'node:fs'
import { initSync } from './dist-wasm/ito_wasm.js'
import * as glue from './dist-wasm/ito_wasm.js'
import { api, handle, nextTask } from './wasm-api.mjs'

initSync({ module: new WebAssembly.Module(readFileSync(new URL('./dist-wasm/ito_wasm_bg.wasm', import.meta.url))) })

// One message at a time, each after a turn of the event loop: messages
// queued together would otherwise run back to back in one turn.
let tail = Promise.resolve()
const runner = {
  threads: 1,
  run(message) {
    const done = tail.then(nextTask).then(() => handle(glue, message))
    tail = done.catch(() => {})
    return done
  },
}

export const {
  verifyEvent,
  getEventHash,
  finalizeEvent,
  getPublicKey,
  generateSecretKey,
  FilterIndex,
  nip19,
  verifyEvents,
  verifyJsonl,
} = api(glue, runner)
