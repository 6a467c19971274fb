/**
 * Lookups of names users type (`--dtype`, `--config`, API field names) in
 * tables. A plain object literal inherits `constructor`, `__proto__`,
 * `toString`… from Object.prototype, so `name in TABLE` or `TABLE[name]`
 * finds a function for `--dtype constructor` and the run goes on with it.
 * Tables of user-facing names are built here with no prototype and frozen,
 * and every lookup asks `Object.hasOwn`, so only the listed names exist.
 */

/** A frozen copy of `entries` with a null prototype: only its own keys can be looked up. */
export function nameTable<T extends object>(entries: T): Readonly<T> {
  return Object.freeze(Object.assign(Object.create(null) as T, entries));
}

/** True when `name` is one of the table's own keys (never an inherited Object.prototype member). */
export function isOwnName<T extends object>(table: T, name: string): name is Extract<keyof T, string> {
  return Object.hasOwn(table, name);
}

/** The table's value for `name`, or undefined when `name` is not one of its own keys. */
export function lookupName<T extends object>(table: T, name: string): T[keyof T] | undefined {
  return isOwnName(table, name) ? table[name] : undefined;
}
