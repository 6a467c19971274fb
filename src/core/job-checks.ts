/**
 * The small vocabulary queue jobs are checked in (the envelope in
 * src/launchers/queue/job-schema.ts, each kind's payload in its scenario
 * folder), kept in core so both sides of that line can use it: each check takes a
 * value and the field's path (`model.manifest.files[0].path`) and answers
 * null, or the problem naming that path. A record check refuses fields it
 * does not list (compared with `Object.hasOwn`, so `__proto__` or
 * `constructor` are unknown fields like any other). A problem names the
 * field and the rule, never the value, which may be large or hostile.
 */
import { optionRange } from './option-ranges.js';

/** null when `value` passes; otherwise what is wrong, naming `at`. */
export type Check = (value: unknown, at: string) => string | null;

export const problem = (at: string, rule: string): string => `field "${at}" ${rule}`;

export const isPlainRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Names a worker, a run or an engine is made of: letters, digits, `.`, `_`, `-`. */
export const NAME = { test: (s: string) => /^[\w.-]+$/u.test(s), rule: 'letters, digits, ".", "_" or "-"' };
export const SHA256 = { test: (s: string) => /^[0-9a-f]{64}$/u.test(s), rule: 'a sha256 in hex' };

/** Characters that would let a value rewrite a log line or a terminal (control characters, bidi overrides). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

/** A string of 1..max printable characters, optionally of a syntax (`pattern` or a predicate) described by `rule`. */
export function text(max: number, syntax?: { readonly test: (s: string) => boolean; readonly rule: string }): Check {
  return (v, at) => {
    if (typeof v !== 'string') return problem(at, 'must be a string');
    if (v.length === 0 || v.length > max) return problem(at, `must be 1 to ${max} characters long`);
    if (CONTROL.test(v)) return problem(at, 'holds a control character');
    if (syntax && !syntax.test(v)) return problem(at, `must be ${syntax.rule}`);
    return null;
  };
}

/** `check`, or null. */
export const nullable = (check: Check): Check => (v, at) => (v === null ? null : check(v, at));

export const literal = (value: string): Check => (v, at) => (v === value ? null : problem(at, `must be "${value}"`));

export const boolean: Check = (v, at) => (typeof v === 'boolean' ? null : problem(at, 'must be true or false'));

/** A number inside the CLI's own range for `option` (src/core/option-ranges.ts), so a job can ask for nothing a user could not. */
export function ranged(option: string): Check {
  const range = optionRange(option);
  return (v, at) => {
    const ok = typeof v === 'number' && Number.isFinite(v) && (!range.integer || Number.isInteger(v)) && (range.minExclusive ? v > range.min : v >= range.min) && v <= range.max;
    return ok ? null : problem(at, `must be ${range.integer ? 'a whole number' : 'a number'} from ${range.min} to ${range.max}`);
  };
}

/** A whole number in [min, max]. */
export const integer = (min: number, max: number): Check => (v, at) =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? null : problem(at, `must be a whole number from ${min} to ${max}`);

/** An array of 1..max items, each passing `item`. */
export function list(item: Check, max: number): Check {
  return (v, at) => {
    if (!Array.isArray(v)) return problem(at, 'must be a list');
    if (v.length === 0 || v.length > max) return problem(at, `must hold 1 to ${max} items`);
    for (const [i, x] of v.entries()) {
      const p = item(x, `${at}[${i}]`);
      if (p) return p;
    }
    return null;
  };
}

/** An object with exactly these fields (each checked), nothing else. */
export function record(fields: Readonly<Record<string, Check>>): Check {
  return (v, at) => {
    if (!isPlainRecord(v)) return problem(at, 'must be an object');
    const extra = Object.keys(v).filter((k) => !Object.hasOwn(fields, k));
    if (extra.length > 0) return problem(at === '' ? (extra[0] as string) : `${at}.${extra[0] as string}`, 'is not a field of the schema');
    for (const [key, check] of Object.entries(fields)) {
      const path = at === '' ? key : `${at}.${key}`;
      const p = Object.hasOwn(v, key) ? check(v[key], path) : problem(path, 'is missing');
      if (p) return p;
    }
    return null;
  };
}

/** A map of 0..max entries whose keys pass `key` and values pass `value`. */
export function map(key: Check, value: Check, max: number): Check {
  return (v, at) => {
    if (!isPlainRecord(v)) return problem(at, 'must be an object');
    const entries = Object.entries(v);
    if (entries.length > max) return problem(at, `must hold at most ${max} entries`);
    for (const [k, x] of entries) {
      const p = key(k, `${at} key`) ?? value(x, `${at}.${k}`);
      if (p) return p;
    }
    return null;
  };
}

/** A tagged union: the `kind` field picks the record check. */
export function tagged(kinds: Readonly<Record<string, Check>>): Check {
  return (v, at) => {
    if (!isPlainRecord(v)) return problem(at, 'must be an object');
    const kind = v['kind'];
    if (typeof kind !== 'string' || !Object.hasOwn(kinds, kind)) return problem(`${at}.kind`, `must be one of ${Object.keys(kinds).join(', ')}`);
    return (kinds[kind] as Check)(v, at);
  };
}
