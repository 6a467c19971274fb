/**
 * Writes result tables as Parquet (snappy), for pandas, DuckDB, Polars or
 * `datasets` to load the numbers with their types.
 */
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { ColumnSource } from 'hyparquet-writer';
import type { ColumnKind, ResultTable } from './result-tables.js';

const PARQUET_TYPE: Readonly<Record<ColumnKind, 'STRING' | 'INT64' | 'DOUBLE'>> = { string: 'STRING', int: 'INT64', float: 'DOUBLE' };

/** Parquet file bytes of a table; ints are INT64, floats DOUBLE, strings UTF-8, every column nullable. */
export function renderParquet(table: ResultTable): Uint8Array {
  const columnData: ColumnSource[] = table.columns.map((column) => ({
    name: column.name,
    type: PARQUET_TYPE[column.kind],
    data: column.kind === 'int' ? column.values.map((v) => (v === null ? null : BigInt(Math.round(Number(v))))) : [...column.values],
  }));
  return new Uint8Array(parquetWriteBuffer({ columnData, codec: 'SNAPPY', createdBy: 'inferbench' }));
}
