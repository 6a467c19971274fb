import { asyncBufferFromFile, parquetMetadataAsync, parquetRead } from 'hyparquet';
import { readParquetRows, localParquetSource } from './dist/datasets/parquet-reader.js';
import { openDataset } from './dist/datasets/open-dataset.js';
const f = '.cache/bench-datasets/hyparquet-writer-snappy-1000000.parquet';
async function raw() { const file = await asyncBufferFromFile(f); const md = await parquetMetadataAsync(file); let n=0, s=0; for (const g of md.row_groups) { const e = s+Number(g.num_rows); await parquetRead({file, metadata: md, rowStart: s, rowEnd: e, rowFormat:'object', onComplete(r){ n+=r.length; }}); s=e; } return n; }
async function direct() { let n=0; for await (const r of readParquetRows(localParquetSource(f))) n++; return n; }
async function dataset() { let n=0; for await (const r of await openDataset(f)) n++; return n; }
async function empty() { async function* g() { for (let i=0;i<1e6;i++) yield {a:i}; } async function* h() { yield* g(); } let n=0; for await (const r of h()) n++; return n; }
for (const [name, fn] of Object.entries({raw, direct, dataset, empty, raw2: raw, direct2: direct, dataset2: dataset})) { const t=performance.now(); const n = await fn(); const s=(performance.now()-t)/1000; console.log(name.padEnd(10), n, s.toFixed(2), Math.round(n/s)); }
