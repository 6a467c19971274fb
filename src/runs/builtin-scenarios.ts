/**
 * The built-in scenarios: one import line per scenario, each module
 * registering itself (see ../scenarios/scenario-registry.ts). Everything
 * that looks a scenario up imports this module first, so the built-ins are
 * there. It sits in src/runs/ while the classification scenario does
 * (its run picks among the launchers itself); the others live whole in
 * their own folder under src/scenarios/.
 */
import './classify-scenario.js';
import '../scenarios/generate/generate-scenario.js';
import '../scenarios/train/train-scenario.js';
import '../scenarios/load/load-scenario.js';
