// The part of `node:assert/strict` the contract tests use, for the
// browser: strict equality (Object.is), strict deep equality, `throws`
// with a class, a validation function, a RegExp or an object of expected
// properties, `match`, `ok`.
class AssertionError extends Error {}

const show = (v) => {
  try {
    return typeof v === 'string' ? JSON.stringify(v).slice(0, 200) : String(v).slice(0, 200)
  } catch {
    return Object.prototype.toString.call(v)
  }
}

function fail(message, fallback) {
  throw message instanceof Error ? message : new AssertionError(message ?? fallback)
}

function deepEqual(a, b) {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false
  if (ArrayBuffer.isView(a)) return a.length === b.length && a.every((x, i) => Object.is(x, b[i]))
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.length !== kb.length) return false
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]))
}

function matches(error, expected) {
  if (expected === undefined) return true
  if (expected instanceof RegExp) return expected.test(String(error?.message ?? error))
  if (typeof expected === 'function') {
    if (expected.prototype !== undefined && error instanceof expected) return true
    if (Error.isPrototypeOf(expected) || expected === Error) return false
    return expected.call({}, error) === true
  }
  if (typeof expected === 'object') {
    return Object.keys(expected).every((k) =>
      expected[k] instanceof RegExp ? expected[k].test(error[k]) : deepEqual(error[k], expected[k]),
    )
  }
  return false
}

const assert = {
  ok: (value, message) => value || fail(message, `expected a truthy value, got ${show(value)}`),
  equal: (a, b, message) => Object.is(a, b) || fail(message, `${show(a)} !== ${show(b)}`),
  notEqual: (a, b, message) => !Object.is(a, b) || fail(message, `${show(a)} === ${show(b)}`),
  deepEqual: (a, b, message) => deepEqual(a, b) || fail(message, `not deep-equal: ${show(JSON.stringify(a))} vs ${show(JSON.stringify(b))}`),
  notDeepEqual: (a, b, message) => !deepEqual(a, b) || fail(message, `deep-equal: ${show(JSON.stringify(a))}`),
  match: (s, re, message) => re.test(s) || fail(message, `${show(s)} does not match ${re}`),
  throws(fn, expected, message) {
    if (typeof expected === 'string') [message, expected] = [expected, undefined]
    try {
      fn()
    } catch (error) {
      if (!matches(error, expected)) fail(message, `wrong exception: ${show(error?.stack ?? error)}`)
      return
    }
    fail(message, 'missing expected exception')
  },
}
export default assert
