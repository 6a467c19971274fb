/**
 * Human units for every report. All numbers are shown with three significant
 * digits and an auto-scaled unit, so a column can mix 812 ns and 1.52 s
 * without scientific notation or misleading trailing precision.
 */

const SIGNIFICANT_DIGITS = 3;

/** Shown for values that cannot be formatted (NaN, Infinity). */
export const NOT_AVAILABLE = 'n/a';

/** Three significant digits, never in exponent form; 4+ digit integers stay whole. */
function formatSignificant(value: number): string {
  if (value === 0) return '0';
  const rounded = Number(value.toPrecision(SIGNIFICANT_DIGITS));
  if (Math.abs(rounded) >= 10 ** SIGNIFICANT_DIGITS) return Math.round(value).toString();
  const text = rounded.toPrecision(SIGNIFICANT_DIGITS);
  // toPrecision switches to exponent form below 1e-6; such values are noise here.
  return text.includes('e') ? value.toFixed(6) : text;
}

/** The value as formatSignificant would print it, as a number, to detect 999.6 → 1000. */
function roundSignificant(value: number): number {
  return Number(formatSignificant(value));
}

interface Scale {
  readonly suffix: string;
  /** How many of this unit make one base unit (ms for durations). */
  readonly perBase: number;
}

/**
 * Picks the largest unit in which |value| is at least 1, then moves one unit
 * up when rounding would print `limit` or more (999.6 µs → 1.00 ms).
 */
function scale(value: number, scales: readonly Scale[], limit: number, separator: string): string {
  if (!Number.isFinite(value)) return NOT_AVAILABLE;
  const magnitude = Math.abs(value);
  let index = 0;
  for (let i = scales.length - 1; i >= 0; i--) {
    if (magnitude * (scales[i] as Scale).perBase >= 1) {
      index = i;
      break;
    }
  }
  let unit = scales[index] as Scale;
  if (Math.abs(roundSignificant(value * unit.perBase)) >= limit && index < scales.length - 1) {
    unit = scales[index + 1] as Scale;
  }
  return `${formatSignificant(value * unit.perBase)}${separator}${unit.suffix}`;
}

const DURATION_SCALES: readonly Scale[] = [
  { suffix: 'ns', perBase: 1e6 },
  { suffix: 'µs', perBase: 1e3 },
  { suffix: 'ms', perBase: 1 },
  { suffix: 's', perBase: 1e-3 },
];

/**
 * Formats a duration given in milliseconds (the unit every RunRecord field
 * uses): 0.000812 → `812 ns`, 0.0124 → `12.4 µs`, 3.21 → `3.21 ms`,
 * 1520 → `1.52 s`. Zero prints as `0 ms` so empty measurements read naturally.
 */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0 ms';
  return scale(ms, DURATION_SCALES, 1000, ' ');
}

const BYTE_SCALES: readonly Scale[] = [
  { suffix: 'B', perBase: 1 },
  { suffix: 'KiB', perBase: 1 / 1024 },
  { suffix: 'MiB', perBase: 1 / 1024 ** 2 },
  { suffix: 'GiB', perBase: 1 / 1024 ** 3 },
  { suffix: 'TiB', perBase: 1 / 1024 ** 4 },
];

/**
 * Formats a byte count with 1024-based units labelled KiB/MiB/GiB, matching
 * what `ls -lh`, `free -h` and RSS tools print, so numbers can be compared
 * with them directly. Whole bytes print without decimals (`812 B`).
 */
export function formatBytes(bytes: number): string {
  if (Number.isFinite(bytes) && Math.abs(bytes) < 1024 && Number.isInteger(bytes)) return `${bytes} B`;
  return scale(bytes, BYTE_SCALES, 1024, ' ');
}

const COUNT_SCALES: readonly Scale[] = [
  { suffix: '', perBase: 1 },
  { suffix: 'k', perBase: 1e-3 },
  { suffix: 'M', perBase: 1e-6 },
  { suffix: 'G', perBase: 1e-9 },
];

/**
 * Formats a per-second rate with SI prefixes: 812 → `812/s`, 1234 →
 * `1.23k/s`. Rates below 1 keep three significant digits (`0.500/s`) rather
 * than rounding slow engines down to zero.
 */
export function formatRate(perSecond: number, unit = '/s'): string {
  if (!Number.isFinite(perSecond)) return NOT_AVAILABLE;
  if (Math.abs(perSecond) < 1) return `${formatSignificant(perSecond)}${unit}`;
  return `${scale(perSecond, COUNT_SCALES, 1000, '')}${unit}`;
}

/**
 * Formats a speed ratio with one decimal (`3.1×`, `12.0×`) so ratios line up
 * and small differences are not overstated; 100× and above print whole.
 */
export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return NOT_AVAILABLE;
  return ratio >= 100 ? `${Math.round(ratio)}×` : `${ratio.toFixed(1)}×`;
}

/** An ISO timestamp as `2025-11-22 13:40:05 UTC`: unambiguous and sortable, without the T/Z noise. */
export function formatTimestamp(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * Formats an interval of durations in one unit, picked from the larger end
 * (`9.53 – 9.67 ms`), so the two ends can be compared digit by digit.
 */
export function formatDurationRange(lowMs: number, highMs: number): string {
  if (!Number.isFinite(lowMs) || !Number.isFinite(highMs)) return NOT_AVAILABLE;
  const shown = formatDuration(Math.max(Math.abs(lowMs), Math.abs(highMs)));
  const unit = DURATION_SCALES.find((s) => shown.endsWith(` ${s.suffix}`)) ?? (DURATION_SCALES[2] as Scale);
  return `${formatSignificant(lowMs * unit.perBase)} – ${formatSignificant(highMs * unit.perBase)} ${unit.suffix}`;
}

/** A fraction as a percentage with three significant digits (`0.0712` → `7.12%`), for CV and agreement. */
export function formatPercent(fraction: number): string {
  if (!Number.isFinite(fraction)) return NOT_AVAILABLE;
  return `${formatSignificant(fraction * 100)}%`;
}

/**
 * A small non-negative difference (output parity): `0`, `2.4e-6`, `0.0312`.
 * Exponent form below 0.001, where fixed digits would print as zeros.
 */
export function formatDifference(value: number): string {
  if (!Number.isFinite(value)) return NOT_AVAILABLE;
  if (value === 0) return '0';
  return Math.abs(value) < 1e-3 ? value.toExponential(1) : formatSignificant(value);
}
