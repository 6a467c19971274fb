/**
 * The built-in scenarios: one import line per scenario, each module (its
 * folder's `<name>-scenario.ts`) registering itself (see
 * ./scenario-registry.ts). Everything that looks a scenario up imports this
 * module first, so the built-ins are there; a new built-in scenario is one
 * folder and one line here.
 */
import './classify/classify-scenario.js';
import './generate/generate-scenario.js';
import './train/train-scenario.js';
import './load/load-scenario.js';
