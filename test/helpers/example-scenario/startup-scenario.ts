/**
 * The example scenario's registration: `inferbench startup` as the CLI,
 * the history (`list`, `show`), the dashboard and the isolated launcher
 * see it, one `registerScenario` call from the parts of this folder.
 * Importing this module is the one registration line (a built-in's is one
 * import line in src/scenarios/builtin-scenarios.ts); its queue job kind and
 * runner register with it, and its child job kind is imported by the
 * child itself, from `childModule`.
 */
import { registerScenario, type Scenario } from '../../../src/scenarios/scenario-registry.js';
import { STARTUP_CHILD_MODULE } from './startup-child-job.js';
import { STARTUP_OPTIONS } from './startup-options.js';
import './startup-queue-job.js';
import { renderStartupReport, startupSettingLines } from './startup-report.js';
import { STARTUP, type StartupRecord } from './startup-results.js';
import { executeStartup, startupFromFlags, type StartupConfig } from './startup-run.js';
import { STARTUP_TABS, startupHeadline, startupSettingsText, startupViews } from './startup-views.js';

export const STARTUP_SCENARIO: Scenario<StartupRecord, StartupConfig> = {
  command: STARTUP,
  recordKind: STARTUP,
  options: STARTUP_OPTIONS,
  modelsAsked: () => [],
  cellHeadline: startupHeadline,
  settingLines: startupSettingLines,
  report: renderStartupReport,
  views: startupViews,
  tabs: STARTUP_TABS,
  settingsText: startupSettingsText,
  execute: executeStartup,
  configFromFlags: startupFromFlags,
  api: { route: STARTUP, load: async () => (await import('./startup-request.js')).STARTUP_API },
  childModule: STARTUP_CHILD_MODULE,
};

registerScenario(STARTUP_SCENARIO);
