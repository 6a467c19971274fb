/**
 * Registers the child job of every built-in scenario: one import line per
 * scenario folder. The child entry imports this once its lifeline watches.
 */
import './classify/classify-child-job.js';
import './generate/generate-child-job.js';
import './train/train-child-job.js';
import './load/load-child-job.js';
