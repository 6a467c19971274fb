import { openDataset } from './dist/datasets/open-dataset.js';
const f = '.cache/bench-datasets/hyparquet-writer-snappy-1000000.parquet';
let n=0; const t=performance.now(); for await (const r of await openDataset(f)) n++; console.log(n, (performance.now()-t)/1000);
