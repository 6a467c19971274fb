/**
 * What the scenario registry says of a history entry: the command it ran,
 * the model it asked for and the record its cells make. Apart from history-entry.ts, which the store
 * reads, so that the store never imports the registry (and through it the
 * scenarios' recorders, which import the store).
 */
import { scenarioOfConfig } from '../../scenarios/scenario-registry.js';
import '../builtin-scenarios.js';
import type { AnyRunRecord, HistoryDetail, HistoryEntry, StoredConfig } from './history-entry.js';

/** The command an entry ran, for lists and `show`: its scenario's word (scenario-registry.ts). */
export function entryCommand(config: StoredConfig): string {
  return scenarioOfConfig(config).command;
}

/**
 * Rebuilds the RunRecord of an entry from the store alone, so reports and
 * charts still work when the run folder is gone. Null while the run has not
 * started (nothing was recorded yet).
 */
export function recordOf(entry: HistoryDetail): AnyRunRecord | null {
  if (entry.runId === null || entry.startedAt === null || entry.environment === null) return null;
  // A failed entry whose every cell was recorded finished its sweep (it failed for measuring nothing), so it reads as such, not as cut short.
  const swept = entry.state === 'failed' && entry.cellsTotal !== null && entry.cellsDone === entry.cellsTotal;
  const state: AnyRunRecord['state'] = entry.state === 'completed' || swept ? 'completed' : entry.state === 'running' ? 'running' : 'interrupted';
  const common = {
    schemaVersion: 1 as const,
    id: entry.runId,
    state,
    startedAt: entry.startedAt,
    finishedAt: entry.finishedAt,
    config: entry.recordedConfig ?? { ...entry.config },
    environment: entry.environment,
    models: entry.models,
  };
  // The scenario of the stored config says which kind of record its cells make (none for `run`).
  const kind = scenarioOfConfig(entry.config).recordKind;
  return { ...common, ...(kind === undefined ? {} : { kind }), cells: entry.cells } as AnyRunRecord;
}

/**
 * Model name of an entry for lists: the recorded rows, else what the config
 * asked for. Precision variants of one model are named together
 * (`tiny-bert · fp32, q8, q4`), so a run of several is never labelled by its
 * first row alone.
 */
export function entryModelName(entry: HistoryEntry): string {
  if (entry.models.length === 0) return scenarioOfConfig(entry.config).modelsAsked(entry.config)[0] ?? 'default model';
  const variants = new Map<string, string[]>();
  for (const m of entry.models) {
    const of = m.variant?.of ?? m.name;
    const dtypes = variants.get(of) ?? [];
    if (m.variant) dtypes.push(m.variant.dtype);
    variants.set(of, dtypes);
  }
  return [...variants].map(([of, dtypes]) => (dtypes.length > 0 ? `${of} · ${dtypes.join(', ')}` : of)).join('; ');
}
