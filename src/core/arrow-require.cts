/**
 * apache-arrow as its one-file build (Arrow.esnext.min.js, the same release
 * as the package's other builds, minified into one module), loaded with
 * `require`. The package's ES module entry is 146 files: importing it cost
 * about 0.24 s of CPU in every process that writes a run's files or reads an
 * Arrow dataset, and this build about 0.04. It is the package's browser
 * build, which leaves out only Node stream adapters (toNodeStream,
 * throughNode) that inferbench never calls; RecordBatchReader.from still
 * takes a FileHandle or an async iterable of bytes. esbuild bundles it as is
 * for the offline pack.
 */
const arrow = require('apache-arrow/Arrow.esnext.min') as typeof import('apache-arrow/Arrow.dom');

export = arrow;
