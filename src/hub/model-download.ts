import { UserError } from '../errors.js';

/** Placeholder until the Hub client lands. */
export async function downloadModel(id: string, _options: { revision: string; onnxFiles: readonly string[]; requireOnnx?: boolean }): Promise<string> {
  throw new UserError(`cannot download ${id}: Hub downloads are not implemented yet`, 'pass a local folder');
}
