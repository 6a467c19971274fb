import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/core/package-info.js';
import type { DataRow } from '../../datasets/dataset.js';
import type { HubEnv } from '../../src/hub/hub-env.js';
import type { HubFetchOptions } from '../../src/hub/hub-fetch.js';
import { testOutputDir } from './test-cache.js';

/** Folder of the committed Parquet and Arrow fixtures (written by tools/make-dataset-fixtures.py). */
export const DATASET_FIXTURES = join(packageRoot(), 'test', 'data', 'datasets');

/** A fixture file or folder by name. */
export function fixture(name: string): string {
  return join(DATASET_FIXTURES, name);
}

/** The first `count` rows of the embedded dataset: what every fixture holds (the first 120). */
export function embeddedRows(count = 120): DataRow[] {
  const path = join(packageRoot(), 'datasets', 'default', 'sentiment.jsonl');
  return readFileSync(path, 'utf8').trim().split('\n').slice(0, count).map((line) => JSON.parse(line) as DataRow);
}

/** Reads every row of an async iterable. */
export async function collect(rows: AsyncIterable<DataRow>): Promise<DataRow[]> {
  const out: DataRow[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

/** Hub settings pointing at a mock server and a fresh cache, never at the user's environment. */
export function mockHubEnv(endpoint: string, overrides: Partial<HubEnv> = {}): HubEnv {
  return { endpoint, token: null, cacheDir: join(testOutputDir('hub-cache'), 'hub'), offline: false, ...overrides };
}

/** Retries fast enough for tests. */
export const FAST_RETRY: HubFetchOptions = { retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5, timeoutMs: 5000 } };
