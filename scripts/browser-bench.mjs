// Runs the bench page (crates/ito-node/__test__/browser/bench.html) in
// full in headless Chromium (Debian's, via playwright-core) and prints its
// results as JSON. Arguments: the page's query string, e.g.
//   node scripts/browser-bench.mjs 'simd&variants=simd128,simd128-lowmemory'
// scripts/browser-bench.sh builds what the page loads first.
import { chromium } from '../crates/ito-node/node_modules/playwright-core/index.mjs'
import { fileURLToPath } from 'node:url'
import { serve } from './browser-serve.mjs'

const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '')
const server = await serve(root)
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] })
try {
  const page = await browser.newPage()
  page.on('console', (m) => console.error(`console: ${m.text()}`))
  await page.goto(`${server.url}/crates/ito-node/__test__/browser/bench.html?${process.argv[2] ?? ''}`)
  await page.waitForFunction(() => window.bench?.done, null, { timeout: 1_800_000, polling: 1000 })
  const bench = await page.evaluate(() => window.bench)
  console.log(JSON.stringify({ ...bench, chromium: browser.version() }, null, 1))
  if (bench.error) process.exitCode = 1
} finally {
  await browser.close()
  await server.close()
}
