/**
 * One run of inferbench's q8 writer in a process of its own, for
 * `bench:quantize`: reads `argv[2]`, writes q8 to `argv[3]`, prints the
 * seconds from before reading to after saving and the process's peak RSS.
 */
import { decodeOnnxFile, writeOnnxModel } from '../src/core/onnx/onnx-file.js';
import { writeVariantGraph } from '../src/models/quantize/variant-writers.js';

const [source, target] = process.argv.slice(2);
if (!source || !target) throw new Error('usage: bench-quantize-child <model.onnx> <out.onnx>');
const start = performance.now();
const decoded = await decodeOnnxFile(source);
writeVariantGraph(decoded, 'q8');
await writeOnnxModel(decoded.model, target, decoded.dir);
const seconds = (performance.now() - start) / 1000;
process.stdout.write(`${JSON.stringify({ seconds, maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
