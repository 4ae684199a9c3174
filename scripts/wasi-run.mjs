// Runs a wasm32-wasip1 program (a `cargo test` binary) under Node's
// built-in WASI: `node scripts/wasi-run.mjs prog.wasm [args...]`, exiting
// with the program's status. scripts/wasm-tests.sh sets it as cargo's
// runner for the target (CARGO_TARGET_WASM32_WASIP1_RUNNER).
//
// The program sees its arguments, this process's environment, and the
// repository directory under its own absolute path (tests read the
// fixtures under data/ through paths built from CARGO_MANIFEST_DIR).
// Nothing else of the file system is visible.
import { readFile } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { WASI } from "node:wasi";

const [program, ...args] = process.argv.slice(2);
if (!program) {
  console.error("usage: node wasi-run.mjs program.wasm [args...]");
  process.exit(2);
}
const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const wasi = new WASI({
  version: "preview1",
  args: [basename(program), ...args],
  env: process.env,
  preopens: { [repo]: repo },
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(program));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
let status;
try {
  status = wasi.start(instance);
} catch (e) {
  // A trap: `unreachable` is how a panic aborts on this target (the
  // panic message is already on stderr); anything else is reported.
  console.error(`wasi-run: ${basename(program)} trapped: ${e.message}`);
  status = 101;
}
process.exitCode = status;
