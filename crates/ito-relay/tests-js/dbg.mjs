import WebSocket from 'ws'
import { startRelay, freshDb, signedNotes } from '/work/main/crates/ito-relay/tests-js/helpers.mjs'
const db = freshDb()
for (let c = 0; c < 3; c++) {
const s = await startRelay(db)
console.log('url', s.url)
const ws = new WebSocket(s.url)
ws.on('unexpected-response', (req, res) => { console.log('status', res.statusCode, res.headers); })
ws.on('error', (e) => console.log('err', e.message))
await new Promise((r) => ws.once('open', r))
console.log('open')
const ev = signedNotes(5, 1000+c)
let n = 0
ws.on('message', (d) => { n++ })
for (const e of ev) ws.send(JSON.stringify(['EVENT', e]))
await new Promise((r) => setTimeout(r, 50))
console.log('oks', n)
s.child.kill('SIGKILL'); await new Promise((r) => s.child.once('exit', r)); ws.terminate()
}
