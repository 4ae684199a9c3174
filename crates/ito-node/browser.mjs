// The `ito-codecs` package in browsers and bundlers (package.json
// `exports`, condition `browser`/`default`): the wasm build, compiled once,
// instantiated here for the synchronous functions and once per Web Worker
// for `verifyEvents` and `verifyJsonl`, which never block the page.
import init, * as glue from './dist-wasm/ito_wasm.js'
import { api } from './wasm-api.mjs'

const wasmUrl = new URL('./dist-wasm/ito_wasm_bg.wasm', import.meta.url)

async function compile(url) {
  const response = fetch(url)
  try {
    return await WebAssembly.compileStreaming(response)
  } catch {
    // A server that does not send `application/wasm`.
    return WebAssembly.compile(await (await fetch(url)).arrayBuffer())
  }
}

const module = await compile(wasmUrl)
await init({ module_or_path: module })

/** Workers started on first use, each with its own instance of `module`,
 * kept for later batches: one per core but one (at most 8), so that the
 * page's own thread keeps a core to itself while a batch runs. */
class WorkerPool {
  constructor() {
    const cores = globalThis.navigator?.hardwareConcurrency || 2
    this.threads = Math.max(1, Math.min(8, cores - 1))
    this.workers = []
    this.waiting = new Map()
    this.nextId = 1
  }

  worker(k) {
    if (!this.workers[k]) {
      const worker = new Worker(new URL('./wasm-worker.mjs', import.meta.url), { type: 'module' })
      worker.onmessage = ({ data }) => {
        const job = this.waiting.get(data.id)
        this.waiting.delete(data.id)
        if (data.error !== undefined) job.reject(new Error(`ito-codecs worker: ${data.error}`))
        else job.resolve(data.result)
      }
      worker.onerror = (event) => {
        for (const job of this.waiting.values()) job.reject(new Error(`ito-codecs worker: ${event.message}`))
        this.waiting.clear()
      }
      worker.postMessage({ module })
      this.workers[k] = worker
    }
    return this.workers[k]
  }

  run(message, k) {
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      this.worker(k % this.threads).postMessage({ id, ...message })
    })
  }
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
} = api(glue, new WorkerPool())
