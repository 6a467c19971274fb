/**
 * How much work one API request may ask for. The CLI runs what its user
 * typed; the dashboard runs what anyone holding its URL (and token) sends,
 * queued behind every other run, so a request is capped: cells per run
 * here, for every scenario, and a scenario's own caps in its folder (a
 * load's rates and probe time: load/load-caps.ts). Over a cap is a 400
 * naming the field, the limit and the figure the request came to.
 */
import { FieldError } from '../core/field-error.js';

/** Cells (models × engines × rounds of a load; models × engines × every swept setting of a run) one request may ask for. */
export const MAX_CELLS = 256;

/** Refuses a run request whose sweep has more cells than MAX_CELLS. */
export function checkRunCells(cells: number): void {
  if (cells > MAX_CELLS) throw new FieldError('engines', `the request asks for ${cells} cells; one request may ask for at most ${MAX_CELLS}`, 'send fewer models, engines, batch sizes, threads, sequence lengths or dtypes');
}
