/**
 * Entry point of an isolated load process: the lifeline first, then the
 * job (load-child-job.ts), imported only once the watch is in place.
 */
import './lifeline.js';

await import('./load-child-job.js');
