/**
 * Entry point of every isolated child process, whatever the scenario: the
 * lifeline first, then the job server (scenario-child-job.ts), imported only
 * once the watch is in place, since it loads every scenario's engines and
 * models. As the child's entry point it is where the default engine
 * registry comes from: the job gets it as a value.
 */
import './lifeline.js';

const [{ defaultRegistry }, { serveChildJob }] = await Promise.all([import('../../engines/registry.js'), import('./scenario-child-job.js')]);
serveChildJob(defaultRegistry);
