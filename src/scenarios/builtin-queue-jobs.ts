/**
 * Registers the queue job kind of every built-in scenario that can run on
 * `inferbench worker`s: one import line per such scenario folder. The
 * queue's job schema imports this, so a worker knows every built-in kind.
 */
import './classify/classify-queue-job.js';
