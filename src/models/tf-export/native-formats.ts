/**
 * The native TensorFlow formats the exporter writes and the folders that hold
 * them, on their own: model folders, signatures and the CLI check a folder's
 * format without importing the exporter, whose translator loads tfjs (about
 * 0.4 s of CPU at every CLI start that reached it).
 */
export const NATIVE_FORMATS = ['graph-model', 'saved-model'] as const;
export type NativeFormat = (typeof NATIVE_FORMATS)[number];

/** The file that marks a folder as holding each format (and that loaders open). */
export const NATIVE_FILE: Readonly<Record<NativeFormat, string>> = { 'graph-model': 'model.json', 'saved-model': 'saved_model.pb' };

/** The engines that run each format, as a sentence names them (a folder that brings only that format). */
export const NATIVE_ENGINES: Readonly<Record<NativeFormat, string>> = { 'graph-model': 'tfjs-<backend>-graph-model', 'saved-model': 'tfjs-node-saved-model' };

export function isNativeFormat(s: string): s is NativeFormat {
  return (NATIVE_FORMATS as readonly string[]).includes(s);
}
