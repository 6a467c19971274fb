import { UserError } from '../src/core/errors.js';
import { createRandom, randomIndex } from './seeded-random.js';

/** One record of a dataset. Read-only because the same row object may be seen by several consumers. */
export type DataRow = Readonly<Record<string, unknown>>;

/** Default of `shuffle`'s buffer, the same as Hugging Face `IterableDataset.shuffle`. */
export const DEFAULT_SHUFFLE_BUFFER_SIZE = 1000;

/**
 * A lazily streamed, re-iterable sequence of rows. Benchmarks run the same
 * data through every engine and batch size, so each iteration re-opens the
 * source and every consumer sees the same rows in the same order, without
 * holding the data set in memory. Transformations return new datasets and
 * read nothing until iterated; when a consumer stops early (`take`, `break`)
 * the underlying source is closed so files are not read to the end.
 */
export class Dataset implements AsyncIterable<DataRow> {
  /** Shown in reports; transformations keep it so results still name the source. */
  readonly name: string;
  readonly #open: () => AsyncIterable<DataRow>;
  readonly #columns: () => Promise<readonly string[]>;

  /**
   * `open` must start a fresh pass over the source on every call; `columns`
   * should be cheap (read a header or a first row) because the CLI calls it
   * to resolve the text and label columns before streaming.
   */
  constructor(name: string, open: () => AsyncIterable<DataRow>, columns: () => Promise<readonly string[]>) {
    this.name = name;
    this.#open = open;
    this.#columns = columns;
  }

  /** Column names, so callers can choose text and label columns before reading rows. */
  columns(): Promise<readonly string[]> {
    return this.#columns();
  }

  [Symbol.asyncIterator](): AsyncIterator<DataRow> {
    return this.#open()[Symbol.asyncIterator]();
  }

  /** Keeps rows for which `pred` is true; `index` counts rows of this dataset, kept or not. */
  filter(pred: (row: DataRow, index: number) => boolean): Dataset {
    const source = this.#open;
    return new Dataset(
      this.name,
      async function* filtered() {
        let index = 0;
        for await (const row of source()) {
          if (pred(row, index++)) yield row;
        }
      },
      this.#columns,
    );
  }

  /**
   * Transforms every row. The columns of the result are those of its first
   * row (or this dataset's columns when it is empty), because `fn` may add or
   * drop fields and only running it tells which.
   */
  map(fn: (row: DataRow, index: number) => DataRow): Dataset {
    const source = this.#open;
    const parentColumns = this.#columns;
    const mapped: Dataset = new Dataset(
      this.name,
      async function* mappedRows() {
        let index = 0;
        for await (const row of source()) yield fn(row, index++);
      },
      async (): Promise<readonly string[]> => {
        for await (const row of mapped) return Object.keys(row);
        return parentColumns();
      },
    );
    return mapped;
  }

  /**
   * Keeps only `columns`, in that order. Unknown names are reported with the
   * columns that exist, when the columns or the rows are first read (the
   * source is not opened here, to keep transformations lazy).
   */
  select(columns: readonly string[]): Dataset {
    const wanted = [...columns];
    const source = this.#open;
    const parentColumns = this.#columns;
    const name = this.name;
    const checked = async (): Promise<readonly string[]> => {
      const available = await parentColumns();
      const unknown = wanted.filter((c) => !available.includes(c));
      if (unknown.length > 0) {
        throw new UserError(
          `Dataset ${name} has no column ${unknown.map((c) => `"${c}"`).join(', ')}; its columns are: ${available.join(', ') || '(none)'}`,
          'Select one of the listed columns (see --text-column / --label-column).',
        );
      }
      return wanted;
    };
    return new Dataset(
      name,
      async function* selected() {
        await checked();
        for await (const row of source()) {
          const out: Record<string, unknown> = {};
          for (const c of wanted) if (Object.hasOwn(row, c)) out[c] = row[c];
          yield out;
        }
      },
      checked,
    );
  }

  /**
   * The first `n` rows. The source is closed (its iterator's `return()`
   * called) as soon as the n-th row has been read, before it is handed on,
   * so a file is never read further than needed and no handle lingers while
   * the consumer works on the last batch.
   */
  take(n: number): Dataset {
    checkCount('take', n);
    const source = this.#open;
    return new Dataset(
      this.name,
      async function* taken() {
        if (n === 0) return;
        const iterator = source()[Symbol.asyncIterator]();
        let open = true;
        try {
          for (let count = 1; ; count++) {
            const next = await iterator.next();
            if (next.done === true) {
              open = false;
              return;
            }
            if (count === n) {
              open = false;
              await iterator.return?.();
              yield next.value;
              return;
            }
            yield next.value;
          }
        } finally {
          if (open) await iterator.return?.();
        }
      },
      this.#columns,
    );
  }

  /** All rows after the first `n` (which are still read, since streams cannot seek). */
  skip(n: number): Dataset {
    checkCount('skip', n);
    const source = this.#open;
    return new Dataset(
      this.name,
      async function* skipped() {
        let index = 0;
        for await (const row of source()) {
          if (index++ >= n) yield row;
        }
      },
      this.#columns,
    );
  }

  /**
   * Buffered shuffle, as Hugging Face `IterableDataset.shuffle(seed,
   * buffer_size)`: fill a buffer of `bufferSize` rows, then emit a random
   * buffered row and put the next source row in its slot; at the end, emit
   * the rest of the buffer in random order. Memory stays bounded by the
   * buffer, the result is only as random as the buffer is large compared to
   * the data, and every pass restarts the PRNG from `seed`, so all engines
   * and batch sizes see the same order.
   */
  shuffle(options: { seed: number; bufferSize?: number }): Dataset {
    const { seed } = options;
    const bufferSize = options.bufferSize ?? DEFAULT_SHUFFLE_BUFFER_SIZE;
    if (!Number.isSafeInteger(seed)) {
      throw new UserError(`Shuffle seed must be an integer, got ${seed}`, 'Pass an integer seed, e.g. --seed 42.');
    }
    if (!Number.isSafeInteger(bufferSize) || bufferSize < 1) {
      throw new UserError(`Shuffle buffer size must be a positive integer, got ${bufferSize}`, 'Pass a buffer size of 1 or more.');
    }
    const source = this.#open;
    return new Dataset(
      this.name,
      async function* shuffled() {
        const random = createRandom(seed);
        const buffer: DataRow[] = [];
        for await (const row of source()) {
          if (buffer.length < bufferSize) {
            buffer.push(row);
            continue;
          }
          const i = randomIndex(random, bufferSize);
          const out = buffer[i] as DataRow;
          buffer[i] = row;
          yield out;
        }
        // Fisher-Yates over what is left, then drain.
        for (let i = buffer.length - 1; i > 0; i--) {
          const j = randomIndex(random, i + 1);
          const tmp = buffer[i] as DataRow;
          buffer[i] = buffer[j] as DataRow;
          buffer[j] = tmp;
        }
        yield* buffer;
      },
      this.#columns,
    );
  }

  /**
   * Groups rows into arrays of `size`; the last batch holds the remainder and
   * may be short, because dropping it would silently lose rows from results.
   */
  batches(size: number): AsyncIterable<DataRow[]> {
    if (!Number.isSafeInteger(size) || size < 1) {
      throw new UserError(`Batch size must be a positive integer, got ${size}`, 'Use batch sizes of 1 or more, e.g. --batch-sizes 1,8,32.');
    }
    const dataset = this;
    return {
      async *[Symbol.asyncIterator]() {
        let batch: DataRow[] = [];
        for await (const row of dataset) {
          batch.push(row);
          if (batch.length === size) {
            yield batch;
            batch = [];
          }
        }
        if (batch.length > 0) yield batch;
      },
    };
  }
}

function checkCount(method: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new UserError(`Dataset.${method} needs a non-negative integer, got ${n}`, 'Pass a row count of 0 or more.');
  }
}
