// `node:test` for the browser: `test(name, fn)` records the case;
// contract.html runs the recorded cases in order after importing the files.
export const cases = []
export function test(name, fn) {
  cases.push({ name, fn })
}
export default test
