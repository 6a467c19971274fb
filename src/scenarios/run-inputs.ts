/**
 * What a per-model scenario (`train`, `load`) opens before it measures,
 * once: the output folder, the engines asked for (checked by name), the
 * dataset with its resolved columns (the text column's type checked), and the name results.json records for
 * it. Shared so every scenario reports a bad engine, column or path alike.
 */
import type { EngineRegistry } from '../core/engine-registry.js';
import { prepareOutputFolder } from '../core/output-folder.js';
import { checkTextColumn, resolveColumns, type ResolvedColumns } from '../../datasets/columns.js';
import type { Dataset } from '../../datasets/dataset.js';
import { datasetSourceString, EMBEDDED_DATASET_NAME, openDataset } from '../../datasets/open-dataset.js';

export interface RunInputs {
  readonly registry: EngineRegistry;
  /** Engines asked for by name, or null for every available one. */
  readonly requested: readonly string[] | null;
  readonly dataset: Dataset;
  /** Every column the dataset has, for messages. */
  readonly available: readonly string[];
  readonly columns: ResolvedColumns;
  /** `embedded default (…)` or the path or Hub id as given. */
  readonly datasetName: string;
}

export async function openRunInputs(
  config: { readonly out: string; readonly engines: readonly string[] | null; readonly dataset: string | null; readonly textColumn: string | null; readonly labelColumn?: string | null },
  registry: EngineRegistry,
): Promise<RunInputs> {
  await prepareOutputFolder(config.out);
  const requested = config.engines ? registry.parseNames(config.engines, '--engines') : null;
  const dataset = await openDataset(config.dataset ?? undefined);
  const available = await dataset.columns();
  const columns = resolveColumns(available, {
    ...(config.textColumn !== null ? { text: config.textColumn } : {}),
    ...(config.labelColumn !== null && config.labelColumn !== undefined ? { label: config.labelColumn } : {}),
  });
  // The text column's type, as `run` checks it: a column of integers or objects is refused here, before any engine opens (it failed each cell after opening).
  await checkTextColumn(dataset, columns.text);
  const datasetName = config.dataset === null ? `embedded default (${EMBEDDED_DATASET_NAME})` : datasetSourceString(config.dataset, {});
  return { registry, requested, dataset, available, columns, datasetName };
}
