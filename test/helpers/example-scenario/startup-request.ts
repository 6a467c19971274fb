/**
 * `POST /api/startup`: the example scenario's part of the dashboard's API.
 * Its fields are flags of its options table by name (`engines`, `rounds`,
 * `no-isolate` as `isolate`), whose JSON name and kind the dashboard
 * derives and checks (src/scenarios/request-fields.ts); the body becomes a
 * config checked by the same code as the command line. Loaded by the
 * dashboard only when a request comes (the registration's `api.load`).
 */
import { asField, checkFieldRanges, enginesWithOptionFields, type RequestField } from '../../../src/scenarios/request-fields.js';
import type { ScenarioApi } from '../../../src/scenarios/scenario-registry.js';
import { checkStartupConfig, startupConfig, type StartupConfig } from './startup-run.js';

const FIELDS: readonly RequestField[] = ['engines', 'rounds', 'no-isolate'];

export const STARTUP_API: ScenarioApi<StartupConfig> = {
  start: {
    fields: FIELDS,
    parse: (fields, ctx) => {
      checkFieldRanges(fields);
      const engines = enginesWithOptionFields(fields, ctx.registry);
      const config = startupConfig({
        out: ctx.out,
        ...(engines !== null ? { engines } : {}),
        ...(typeof fields['rounds'] === 'number' ? { rounds: fields['rounds'] } : {}),
        ...(typeof fields['isolate'] === 'boolean' ? { isolate: fields['isolate'] } : {}),
      });
      asField('rounds', () => checkStartupConfig(config, 'field'));
      return config;
    },
  },
  // A start opens no file: no path to check again.
  recheckPaths: (config) => config,
  resolveStored: (config, ctx) => {
    const resolved = startupConfig({ ...config, out: ctx.out });
    checkStartupConfig(resolved, 'field');
    return resolved;
  },
};
