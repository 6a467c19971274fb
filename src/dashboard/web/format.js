// Pure text formatting for the dashboard's pages (no DOM, no location), so
// the tables built from it can be checked in node as well as drawn here.

/** Escapes text for HTML. */
export function esc(value) {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** 1234.5 → `1.23k`; small numbers keep three significant digits. */
export function rate(value) {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  if (value >= 1e6) return `${(value / 1e6).toPrecision(3)}M`;
  if (value >= 1e3) return `${(value / 1e3).toPrecision(3)}k`;
  return value.toPrecision(3);
}

/** Milliseconds as `812 µs`, `3.40 ms`, `1.20 s`. */
export function duration(ms) {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return 'n/a';
  if (ms < 1) return `${(ms * 1000).toPrecision(3)} µs`;
  if (ms < 1000) return `${ms.toPrecision(3)} ms`;
  return `${(ms / 1000).toPrecision(3)} s`;
}

/** Bytes as `812 KiB`, `1.20 MiB`. */
export function bytes(value) {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let v = value;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toPrecision(3)} ${units[i]}`;
}
