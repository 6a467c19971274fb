/**
 * Entry point of an isolated generation process: the lifeline first, then
 * the job (generation-child-job.ts), imported only once the watch is in place.
 */
import './lifeline.js';

await import('./generation-child-job.js');
