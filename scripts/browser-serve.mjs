// A static file server for the browser pages (scripts/browser-test.mjs,
// scripts/browser-bench.mjs): the repository's files on 127.0.0.1, with
// the MIME types a browser insists on for modules and wasm. Local only;
// paths that leave the root are refused.
import { createServer } from 'node:http'
import { createReadStream, statSync } from 'node:fs'
import { extname, join, normalize, sep } from 'node:path'

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.jsonl': 'application/x-ndjson',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
}

/** Serves `root` on a free port; resolves with `{ url, close }`. */
export function serve(root) {
  const server = createServer((req, res) => {
    const path = normalize(join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname)))
    let stat
    try {
      stat = path.startsWith(root + sep) ? statSync(path) : null
    } catch {
      stat = null
    }
    if (!stat || !stat.isFile()) {
      res.writeHead(404).end('not found')
      return
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      'content-length': stat.size,
      'cache-control': 'no-store',
    })
    createReadStream(path).pipe(res)
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () => new Promise((done) => server.close(done)),
      })
    })
  })
}
