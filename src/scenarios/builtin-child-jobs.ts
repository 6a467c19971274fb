/**
 * Registers the child job of every built-in scenario: one import line per
 * scenario folder. The child entry (src/launchers/scenario-child.ts), a
 * program's entry point like the CLI's, imports this once its lifeline
 * watches; the launchers themselves import no scenario.
 */
import './classify/open-group.js';
import './generate/generate-child-job.js';
import './train/train-child-job.js';
import './load/load-child-job.js';
