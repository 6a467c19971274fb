/**
 * What is wrong with a VK_ICD_FILENAMES value, read the way the Vulkan
 * loader reads it: a `:`-separated list of driver manifests, each a JSON file
 * whose `ICD.library_path` names the driver. When Dawn finds no adapter, the
 * user is told which entry is wrong and how (missing, a directory, unreadable,
 * not an ICD manifest) instead of a bare "no adapter".
 */
import { readFileSync, statSync } from 'node:fs';

/** Why one manifest path cannot be a driver, or null when it looks like one. */
export function icdFileProblem(path: string): string | null {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    return `${path} does not exist`;
  }
  if (isDir) return `${path} is a directory, not an ICD file (name the driver's .json file in it)`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return `${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'read failed'})`;
  }
  try {
    const icd = (JSON.parse(text) as { ICD?: { library_path?: unknown } } | null)?.ICD;
    if (typeof icd?.library_path === 'string' && icd.library_path !== '') return null;
  } catch {
    return `${path} is not a Vulkan ICD file (not JSON)`;
  }
  return `${path} is not a Vulkan ICD file (no ICD.library_path)`;
}

/**
 * Why VK_ICD_FILENAMES gives the loader no driver: null when it is unset or
 * at least one entry looks like a driver manifest (the fault is elsewhere);
 * otherwise each entry's problem, joined.
 */
export function icdVariableProblem(value: string | undefined): string | null {
  if (value === undefined) return null;
  const entries = value.split(':').filter((f) => f !== '');
  if (entries.length === 0) return `VK_ICD_FILENAMES is empty`;
  const problems = entries.map(icdFileProblem);
  if (problems.some((p) => p === null)) return null;
  return `VK_ICD_FILENAMES=${value} names no ICD file: ${problems.join('; ')}`;
}
