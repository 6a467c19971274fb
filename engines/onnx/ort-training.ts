/**
 * Why the ONNX Runtime engines give skipped `inferbench train` cells. Checked
 * against the installed packages (test/engines/train-onnx-skipped.test.ts): the
 * onnxruntime-node 1.30.0 module exports InferenceSession, Tensor, env,
 * listSupportedBackends, registerBackend and the TRACE helpers and nothing
 * else; onnxruntime-common 1.30.0 declares no TrainingSession (its index
 * re-exports backend, env, inference-session, tensor, tensor-conversion,
 * tensor-factory, trace, onnx-model and onnx-value only); and the native
 * libonnxruntime it ships contains no TrainingSession symbol. onnxruntime-web
 * 1.30.0 exports the same inference-only API.
 */
export const ORT_NODE_NO_TRAINING =
  'onnxruntime-node has no training API: onnxruntime-node 1.30 exports only InferenceSession, Tensor, env, ' +
  'listSupportedBackends, registerBackend and TRACE helpers, and onnxruntime-common declares no TrainingSession';

export const ORT_WEB_NO_TRAINING =
  'onnxruntime-web has no training API: onnxruntime-web 1.30 exports only InferenceSession, Tensor, env, registerBackend ' +
  'and TRACE helpers, and onnxruntime-common declares no TrainingSession';
