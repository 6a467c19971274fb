/**
 * A request to start a benchmark, and a stored config made runnable again,
 * for any scenario: the dashboard checks the body's JSON kinds against the
 * fields the scenario's registration gives (scenarios/request-fields.ts derives
 * them from its options) and leaves the config to the scenario's own part
 * (src/scenarios/<name>/<name>-request.ts), so no scenario is named here.
 */
import { UserError } from '../core/errors.js';
import type { StoredConfig } from '../runs/history/history-entry.js';
import { checkFields, requestFieldKinds } from '../scenarios/request-fields.js';
import '../runs/builtin-scenarios.js';
import { scenarioOfConfig, type RequestContext, type Scenario, type ScenarioApi, type ScenarioConfig } from '../scenarios/scenario-registry.js';

/** A validated request to add a benchmark: the config of its scenario. */
export interface RunRequest {
  readonly config: StoredConfig;
  /** History id to compare the new entry against, if one was picked. */
  readonly compareWith: number | null;
}

/**
 * Validates a request that starts `scenario` (POST /api/<route>) with the
 * same code as its CLI command, once its API part is loaded. Throws
 * FieldError naming the field.
 */
export async function parseStartRequest(scenario: Scenario, body: unknown, ctx: RequestContext): Promise<RunRequest> {
  const api = await scenario.api?.load();
  if (!api) throw new Error(`the ${scenario.command} scenario has no dashboard part`);
  return startRequest(scenario, api, body, ctx);
}

/** parseStartRequest with the scenario's API part at hand (tests hold it already). */
export function startRequest<C extends ScenarioConfig>(scenario: Scenario, api: ScenarioApi<C>, body: unknown, ctx: RequestContext): RunRequest {
  if (!api.start) throw new Error(`the ${scenario.command} scenario takes no start request`);
  const { fields, compareWith } = checkFields(body, requestFieldKinds(scenario.options, api.start.fields), scenario.command);
  return { config: api.start.parse(fields, ctx) as StoredConfig, compareWith };
}

/**
 * A stored config made runnable by this dashboard: its paths passed through
 * the same guard as a new request (a CLI run in the history may point
 * anywhere), written to its own output folder, by its scenario.
 */
export async function checkStoredConfig(config: StoredConfig, ctx: RequestContext): Promise<StoredConfig> {
  const scenario = scenarioOfConfig(config);
  const api = await scenario.api?.load();
  if (!api) throw new UserError(`a ${scenario.command} benchmark cannot be run again from the dashboard: its scenario has no dashboard part`, `rerun it with \`inferbench ${scenario.command}\``);
  return api.resolveStored(api.recheckPaths(config, ctx.guard), ctx) as StoredConfig;
}

/**
 * The config with its paths resolved again through the guard as its run
 * starts, by its scenario (see ScenarioApi.recheckPaths: a folder swapped
 * for a symlink after queueing is refused). A config whose scenario has no
 * dashboard part was not queued through the API and runs as it is.
 */
export async function recheckStoredPaths(config: StoredConfig, guard: RequestContext['guard']): Promise<StoredConfig> {
  const api = await scenarioOfConfig(config).api?.load();
  return api ? (api.recheckPaths(config, guard) as StoredConfig) : config;
}
