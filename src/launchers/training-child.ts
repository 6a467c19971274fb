/**
 * Entry point of an isolated training process: the lifeline first, then
 * the job (training-child-job.ts), imported only once the watch is in place.
 */
import './lifeline.js';

await import('./training-child-job.js');
