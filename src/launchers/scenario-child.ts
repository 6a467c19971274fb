/**
 * Entry point of every isolated child process, whatever the scenario: the
 * lifeline first, then the job server (scenario-child-job.ts), imported only
 * once the watch is in place, since it loads every scenario's engines and
 * models.
 */
import './lifeline.js';

await import('./scenario-child-job.js');
