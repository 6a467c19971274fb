/**
 * Entry point of an isolated classification process: the lifeline first,
 * then the job (cell-child-job.ts), imported only once the watch is in place.
 */
import './lifeline.js';

await import('./cell-child-job.js');
