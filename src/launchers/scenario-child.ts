/**
 * Entry point of every isolated child process, whatever the scenario: the
 * lifeline first, then, once the watch is in place, the child jobs of
 * every registered scenario (each registration says how to import its own:
 * src/scenarios/scenario-jobs.ts) and the job server
 * (scenario-child-job.ts), which load the engines and models. Like the
 * CLI's main, this entry is where a program picks its built-in scenarios:
 * the one file under src/launchers/ that imports from src/scenarios/
 * (test/repo/architecture-launchers-generic), and where the default engine
 * registry comes from: the job gets it as a value.
 */
import './lifeline.js';

const { loadChildJobs } = await import('../scenarios/scenario-jobs.js');
await loadChildJobs();
const [{ defaultRegistry }, { serveChildJob }] = await Promise.all([import('../../engines/registry.js'), import('./scenario-child-job.js')]);
serveChildJob(defaultRegistry);
