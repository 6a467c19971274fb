/**
 * Registers the queue job kind of every built-in scenario that can run on
 * `inferbench worker`s: one import line per such scenario folder. The
 * worker's entry (src/cli/worker-command.ts) imports this, so a worker
 * knows every built-in kind while the queue launcher names no scenario.
 */
import './classify/classify-queue-job.js';
