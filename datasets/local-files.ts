import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';
import { UserError } from '../src/core/errors.js';
import { LABEL_COLUMN_CANDIDATES } from './columns.js';
import type { DataRow } from './dataset.js';
import type { RowBatch } from './row-batches.js';
import { readArrowBatches, readArrowColumns, readArrowRows } from './arrow-reader.js';
import { localParquetSource, readParquetBatches, readParquetColumns, readParquetRows } from './parquet-reader.js';
import { lookupName } from '../src/core/name-lookup.js';

/** File formats read locally. */
export type LocalFormat = 'jsonl' | 'csv' | 'tsv' | 'parquet' | 'arrow';

/** Extension (lower case, with dot) to format; the single source for error messages and folder scans. */
export const LOCAL_FORMAT_EXTENSIONS: Readonly<Record<string, LocalFormat>> = {
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.parquet': 'parquet',
  '.arrow': 'arrow',
  '.feather': 'arrow',
};

/** One line for error messages, so every "unsupported" message lists the same formats. */
export const SUPPORTED_FORMATS_TEXT =
  'Parquet (.parquet), Arrow IPC (.arrow, .feather), JSON Lines (.jsonl, .ndjson), CSV with a header row (.csv) and TSV (.tsv, with a header row or as "text<TAB>label" lines)';

/** Rows read to learn a JSONL file's columns; JSONL rows may differ in fields, so the first row alone can miss some. */
const JSONL_COLUMN_SNIFF_ROWS = 64;

/** The format of `path` by its extension, or undefined when it is not one inferbench reads. */
export function localFormatOf(path: string): LocalFormat | undefined {
  return lookupName(LOCAL_FORMAT_EXTENSIONS, extname(path).toLowerCase());
}

/**
 * Streams the rows of one file. Files are read incrementally (never whole),
 * so data sets larger than memory work, and closing the iterator early closes
 * the file. A text file without any row is an error, because a benchmark
 * over no data would report nothing and hide the mistake; a Parquet or Arrow
 * shard may legitimately hold no rows, and an empty data set as a whole is
 * reported by the benchmark.
 */
export function readRows(path: string, format: LocalFormat): AsyncIterable<DataRow> {
  switch (format) {
    case 'jsonl':
      return readJsonlRows(path);
    case 'csv':
      return readDelimitedRows(path, csvRecords(path), 'fields containing commas, quotes or line breaks must be quoted ("like ""this"", here")');
    case 'tsv':
      return readDelimitedRows(path, tsvRecords(path), 'TSV fields cannot contain tabs or line breaks');
    case 'parquet':
      return readParquetRows(localParquetSource(path));
    case 'arrow':
      return readArrowRows(path);
  }
}

/**
 * The rows of one file in batches: a row group or record batch at a time for
 * Parquet and Arrow, one row at a time for the text formats (which are parsed
 * row by row anyway). Shards of a folder are chained at this level so rows
 * pass through a single iterator (see `rowsOfBatches`).
 */
export async function* readBatches(path: string, format: LocalFormat): AsyncGenerator<RowBatch> {
  if (format === 'parquet') {
    yield* readParquetBatches(localParquetSource(path));
  } else if (format === 'arrow') {
    yield* readArrowBatches(path);
  } else {
    for await (const row of readRows(path, format)) yield [row];
  }
}

/** Column names of one file, read from its schema (Parquet, Arrow), header (CSV, TSV) or first rows (JSONL). */
export async function readColumns(path: string, format: LocalFormat): Promise<string[]> {
  if (format === 'parquet') return readParquetColumns(localParquetSource(path));
  if (format === 'arrow') return readArrowColumns(path);
  if (format === 'jsonl') {
    const seen = new Set<string>();
    let n = 0;
    for await (const row of readJsonlRows(path)) {
      for (const key of Object.keys(row)) seen.add(key);
      if (++n >= JSONL_COLUMN_SNIFF_ROWS) break;
    }
    return [...seen];
  }
  const records = format === 'csv' ? csvRecords(path) : tsvRecords(path);
  for await (const record of records) return headerOf(path, record);
  throw emptyFile(path);
}

/**
 * Label fields that look numeric become numbers, because CSV and TSV carry
 * only strings and callers compare labels with 0 and 1. Other columns keep
 * their values: a text column must stay text even when a row reads "42".
 */
function coerceLabels(row: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(row)) {
    if (!LABEL_COLUMN_CANDIDATES.includes(key.toLowerCase())) continue;
    const value = row[key];
    if (typeof value === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value)) {
      row[key] = Number(value);
    }
  }
  return row;
}

function emptyFile(path: string): UserError {
  return new UserError(`Data file ${path} has no rows`, 'Point inferbench at a file with data, or remove the empty file from the folder.');
}

async function* readLines(path: string): AsyncGenerator<string> {
  const stream = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  try {
    let first = true;
    for await (const line of lines) {
      yield first && line.startsWith('\uFEFF') ? line.slice(1) : line;
      first = false;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}

/** One JSONL line as a row; null for a blank line. The one parse of a JSONL line, streamed or read whole. */
function jsonlRow(path: string, line: string, lineNumber: number): DataRow | null {
  if (line.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    throw new UserError(
      `${path}, line ${lineNumber}: not valid JSON (${err instanceof Error ? err.message : String(err)})`,
      `Fix or remove line ${lineNumber}; in JSON Lines every line is one JSON object such as {"text": "...", "label": 1}.`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UserError(
      `${path}, line ${lineNumber}: expected a JSON object, found ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
      `Make line ${lineNumber} an object such as {"text": "...", "label": 1}.`,
    );
  }
  return coerceLabels(value as Record<string, unknown>);
}

async function* readJsonlRows(path: string): AsyncGenerator<DataRow> {
  let lineNumber = 0;
  let rows = 0;
  for await (const line of readLines(path)) {
    const row = jsonlRow(path, line, ++lineNumber);
    if (row === null) continue;
    rows++;
    yield row;
  }
  if (rows === 0) throw emptyFile(path);
}

/**
 * Every row of a JSONL file read at once, for a small file read whole (the
 * embedded data set's 3,000 texts, which every run of the default model
 * reads for its vocabulary): streamed, each line's awaits cost 70-100 ms of
 * CPU there; read whole, about 10.
 */
export async function readJsonlFile(path: string): Promise<DataRow[]> {
  const text = await readFile(path, 'utf8');
  const rows: DataRow[] = [];
  text.split(/\r\n|\n|\r/).forEach((line, i) => {
    const row = jsonlRow(path, i === 0 && line.startsWith('\uFEFF') ? line.slice(1) : line, i + 1);
    if (row !== null) rows.push(row);
  });
  if (rows.length === 0) throw emptyFile(path);
  return rows;
}

/** A parsed line of a delimited file, with the line it started on for error messages. */
interface DelimitedRecord {
  readonly fields: string[];
  readonly line: number;
  /** Set on the first record of a header-less TSV file: the columns to use, and the record is data. */
  readonly headerless?: readonly string[];
}

function headerOf(path: string, record: DelimitedRecord): string[] {
  if (record.headerless !== undefined) return [...record.headerless];
  const names = record.fields.map((f, i) => (f.trim() === '' ? `column${i + 1}` : f.trim()));
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate !== undefined) {
    throw new UserError(`${path}: the header names column "${duplicate}" twice`, 'Give every column of the header row a distinct name.');
  }
  return names;
}

async function* readDelimitedRows(path: string, records: AsyncIterable<DelimitedRecord>, rule: string): AsyncGenerator<DataRow> {
  let header: string[] | undefined;
  let rows = 0;
  for await (const record of records) {
    if (header === undefined) {
      header = headerOf(path, record);
      if (record.headerless === undefined) continue;
    }
    if (record.fields.length !== header.length) {
      throw new UserError(
        `${path}, line ${record.line}: ${record.fields.length} fields, but the header has ${header.length} (${header.join(', ')})`,
        `Fix line ${record.line}; ${rule}.`,
      );
    }
    const row: Record<string, unknown> = {};
    header.forEach((name, i) => {
      row[name] = record.fields[i];
    });
    rows++;
    yield coerceLabels(row);
  }
  if (rows === 0) {
    if (header === undefined) throw emptyFile(path);
    throw new UserError(`Data file ${path} has a header row but no data rows`, 'Add rows below the header, or point inferbench at another file.');
  }
}

/**
 * TSV as most sentiment corpora ship it: no quoting, one record per line.
 * When the first line has two fields and the last is 0 or 1 there is no
 * header (the "text<TAB>label" layout of e.g. the UCI sentiment sentences);
 * then a text containing tabs keeps them, the label being the last field.
 */
async function* tsvRecords(path: string): AsyncGenerator<DelimitedRecord> {
  let lineNumber = 0;
  let headerless: boolean | undefined;
  for await (const line of readLines(path)) {
    lineNumber++;
    if (line.trim() === '') continue;
    let fields = line.split('\t');
    if (headerless === undefined) {
      headerless = fields.length === 2 && /^[01]$/.test((fields[1] ?? '').trim());
      if (headerless) {
        yield { fields, line: lineNumber, headerless: ['text', 'label'] };
        continue;
      }
    }
    if (headerless && fields.length > 2) fields = [fields.slice(0, -1).join('\t'), fields[fields.length - 1] ?? ''];
    yield { fields, line: lineNumber };
  }
}

/**
 * RFC 4180 CSV, parsed as the file streams in: quoted fields may hold commas,
 * doubled quotes and line breaks, so records cannot be split on lines. Lax
 * where spreadsheets are (CRLF or LF, a quote inside an unquoted field is
 * kept literally); strict only on an unclosed quote, which would otherwise
 * swallow the rest of the file into one field.
 */
async function* csvRecords(path: string): AsyncGenerator<DelimitedRecord> {
  const stream = createReadStream(path, { encoding: 'utf8' });
  let fields: string[] = [];
  let field = '';
  let quoted = false; // the current field started with a quote
  let inQuotes = false;
  let quoteInQuotes = false; // saw `"` inside quotes: either an escaped quote or the closing one
  let line = 1;
  let recordLine = 1;
  let first = true;
  const endRecord = (): DelimitedRecord | undefined => {
    const blank = fields.length === 0 && field === '' && !quoted;
    fields.push(field);
    const record = blank ? undefined : { fields, line: recordLine };
    fields = [];
    field = '';
    quoted = false;
    return record;
  };
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      let text = chunk;
      if (first) {
        if (text.startsWith('\uFEFF')) text = text.slice(1);
        first = false;
      }
      for (let i = 0; i < text.length; i++) {
        const ch = text[i] as string;
        if (inQuotes) {
          if (quoteInQuotes) {
            quoteInQuotes = false;
            if (ch === '"') {
              field += '"';
              continue;
            }
            inQuotes = false; // that quote closed the field; handle `ch` as unquoted text below
          } else if (ch === '"') {
            quoteInQuotes = true;
            continue;
          } else {
            if (ch === '\n') line++;
            field += ch;
            continue;
          }
        }
        if (ch === ',') {
          fields.push(field);
          field = '';
          quoted = false;
        } else if (ch === '\n') {
          const record = endRecord();
          line++;
          recordLine = line;
          if (record !== undefined) yield record;
        } else if (ch === '\r') {
          // Part of a CRLF line break outside quotes.
        } else if (ch === '"' && field === '' && !quoted) {
          quoted = true;
          inQuotes = true;
        } else {
          field += ch;
        }
      }
    }
    if (inQuotes && !quoteInQuotes) {
      throw new UserError(
        `${path}, line ${recordLine}: a quoted field is never closed`,
        'Close the quote; a quote inside a quoted field is written twice ("").',
      );
    }
    const record = endRecord();
    if (record !== undefined) yield record;
  } finally {
    stream.destroy();
  }
}
