/**
 * onnx-proto's CommonJS module, loaded with `require`. Node runs every
 * CommonJS module that an ES module imports through cjs-module-lexer to find
 * its named exports; onnx-proto's is 331 KB, and lexing it (with V8
 * optimising the lexer on a second thread while it runs) cost about 0.25 s
 * of CPU in every process that reads an ONNX file, a fifth of a short
 * `inferbench run`. From this CommonJS file Node requires it as is, and
 * esbuild bundles it the same for the browser page and the offline pack.
 * Node lexes this file only: `module.exports = onnxProto` names no exports.
 */
import onnxProto = require('onnx-proto');

export = onnxProto;
