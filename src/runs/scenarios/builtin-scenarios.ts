/**
 * The built-in scenarios: one import line per scenario, each module
 * registering itself (see ../scenario-registry.ts). Everything that looks
 * a scenario up imports this module first, so the built-ins are there.
 */
import './classify-scenario.js';
import './generate-scenario.js';
import './train-scenario.js';
import './load-scenario.js';
