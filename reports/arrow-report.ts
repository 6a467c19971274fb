/**
 * Writes result tables as Arrow IPC files (`.arrow`, the random-access file
 * format), which pyarrow, Polars, DuckDB and apache-arrow read directly.
 * apache-arrow comes as one file (core/arrow-require.cts says why).
 */
import arrow from '../src/core/arrow-require.cjs';
import type { DataType, Vector } from 'apache-arrow/Arrow.dom';
import type { ResultTable, TableColumn } from './result-tables.js';

const { Float64, Int64, Table, tableToIPC, Utf8, vectorFromArray } = arrow;

function vectorOf(column: TableColumn): Vector<DataType> {
  switch (column.kind) {
    case 'string':
      return vectorFromArray(column.values.map((v) => (v === null ? null : String(v))), new Utf8());
    case 'int':
      return vectorFromArray(column.values.map((v) => (v === null ? null : BigInt(Math.round(Number(v))))), new Int64());
    case 'float':
      return vectorFromArray(column.values.map((v) => (v === null ? null : Number(v))), new Float64());
  }
}

/** Arrow IPC file bytes of a table; ints are Int64, floats Float64, strings Utf8, every column nullable. */
export function renderArrow(table: ResultTable): Uint8Array {
  const vectors: Record<string, Vector<DataType>> = {};
  for (const column of table.columns) vectors[column.name] = vectorOf(column);
  return tableToIPC(new Table(vectors), 'file');
}
