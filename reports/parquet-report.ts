/**
 * Writes result tables as Parquet (snappy), for pandas, DuckDB, Polars or
 * `datasets` to load the numbers with their types.
 */
import type { ColumnSource } from 'hyparquet-writer';
import { importVendored } from '../src/core/package-info.js';
import type { ColumnKind, ResultTable } from './result-tables.js';

const PARQUET_TYPE: Readonly<Record<ColumnKind, 'STRING' | 'INT64' | 'DOUBLE'>> = { string: 'STRING', int: 'INT64', float: 'DOUBLE' };

/** Parquet file bytes of a table; ints are INT64, floats DOUBLE, strings UTF-8, every column nullable. */
export async function renderParquet(table: ResultTable): Promise<Uint8Array> {
  const { parquetWriteBuffer } = await parquetWriter();
  const columnData: ColumnSource[] = table.columns.map((column) => ({
    name: column.name,
    type: PARQUET_TYPE[column.kind],
    data: column.kind === 'int' ? column.values.map((v) => (v === null ? null : BigInt(Math.round(Number(v))))) : [...column.values],
  }));
  return new Uint8Array(parquetWriteBuffer({ columnData, codec: 'SNAPPY', createdBy: 'inferbench' }));
}

/**
 * hyparquet-writer, from the build's one-module bundle where there is one:
 * its 24 files cost 0.1 CPU-s to import, the bundle 0.03, at every run that
 * writes its files (reports/cell-files.ts and src/runs/saved-outputs.ts take
 * it from here too).
 */
export function parquetWriter(): Promise<typeof import('hyparquet-writer')> {
  return importVendored('hyparquet-writer.mjs', () => import('hyparquet-writer'));
}
