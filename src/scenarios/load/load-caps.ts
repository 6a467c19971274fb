/**
 * How much work one `POST /api/load` request may ask for, beyond the cells
 * every scenario's request is held to (../request-caps.ts): a load lists
 * rates and holds each for a duration, so its rates and the total time its
 * probes take are capped too. Over a cap is a 400 naming the field, the
 * limit and the figure the request came to.
 */
import { FieldError } from '../../core/field-error.js';
import { MAX_CELLS } from '../request-caps.js';
import type { LoadConfig } from './load-run.js';
import { PEAK_MAX_PROBES } from './peak-search.js';

/** Rates one load request may list. */
export const MAX_RATES = 32;
/** Total probe time one load request may ask for: one hour. */
export const MAX_PROBE_TIME_MS = 3_600_000;

/** Refuses a load request over a cap; `engineCount` is how many engines it runs (all available ones when it names none). */
export function checkLoadCaps(config: LoadConfig, engineCount: number): void {
  if (config.rates.length > MAX_RATES) {
    throw new FieldError('rates', `rates lists ${config.rates.length} rates; one request may ask for at most ${MAX_RATES}`, `send at most ${MAX_RATES} rates, or use findPeak to search for the peak`);
  }
  const cells = Math.max(config.models.length, 1) * Math.max(engineCount, 1) * config.rounds;
  if (cells > MAX_CELLS) {
    throw new FieldError('engines', `the request asks for ${cells} cells (models × engines × rounds); one request may ask for at most ${MAX_CELLS}`, 'send fewer models, engines or rounds');
  }
  const probes = config.rates.length + (config.findPeak ? PEAK_MAX_PROBES : 0);
  const totalMs = cells * probes * (config.durationMs + config.warmupMs);
  if (totalMs > MAX_PROBE_TIME_MS) {
    throw new FieldError(
      'durationMs',
      `the request's probes take up to ${formatHours(totalMs)} (${cells} cells × ${probes} probes × ${((config.durationMs + config.warmupMs) / 1000).toFixed(1)} s each); one request may take at most ${formatHours(MAX_PROBE_TIME_MS)}`,
      'send fewer rates, cells or rounds, or a shorter durationMs and warmupMs',
    );
  }
}

function formatHours(ms: number): string {
  const hours = ms / 3_600_000;
  return hours >= 1 ? `${hours.toFixed(1)} h` : `${Math.round(ms / 60_000)} min`;
}
