/**
 * The two formats inferbench's exporter writes from an ONNX graph, in the
 * format table (core/model-formats.ts): the tfjs GraphModel (model.json,
 * tfjs-<backend>-graph-model) and the TensorFlow SavedModel
 * (saved_model.pb, tfjs-node-saved-model). Light on purpose: the exporter
 * and the translator it probes ranks with load only when a model's file is
 * first written, or a graph's refusal first asked.
 */
import { registerModelFormat } from '../../core/model-formats.js';
import type { NativeFormat } from './native-formats.js';

const LABEL: Readonly<Record<NativeFormat, string>> = { 'graph-model': 'tfjs GraphModel', 'saved-model': 'TensorFlow SavedModel' };

for (const format of ['graph-model', 'saved-model'] as const) {
  registerModelFormat({
    id: format,
    label: LABEL[format],
    // Cached by the ONNX bytes' sha256 (native-export.ts), so the second model of one graph finds the first one's files.
    fromOnnx: async (onnxPath) => (await (await import('./native-export.js')).ensureNativeExport(onnxPath, format)).file,
    refusal: async (model) => (await import('./onnx-to-tf.js')).exportRefusal(model, format),
  });
}
