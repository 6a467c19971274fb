/**
 * Which task a text model folder is: a classifier (a head: `id2label`, a
 * `logits` output) or a feature-extraction model (token or sentence vectors,
 * sentence-transformers files, a bare `…Model` architecture). One rule for
 * local folders, downloaded Hub folders and generated `--config` folders,
 * so the same folder is never read two ways.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../core/errors.js';
import { EMBEDDING_GRAPH_OUTPUTS, FeatureExtraction } from './feature-extraction.js';
import { readModelJson } from './model-folder.js';
import { readOnnxSignature } from './onnx-signature.js';
import { hasSentenceTransformersFiles } from './sentence-transformers-folder.js';
import { requireModelFiles, TextClassification, type TextClassificationOptions } from './text-classification.js';

import type { TextTask } from './task-names.js';
export { TEXT_TASKS, type TextTask } from './task-names.js';

/** What the detection reads from a folder. */
export interface TaskEvidence {
  readonly config: { readonly architectures?: unknown; readonly id2label?: unknown };
  /** modules.json or 1_Pooling/config.json present. */
  readonly sentenceTransformers: boolean;
  /** The graph's output names; null when the folder has no ONNX graph to read them from. */
  readonly outputs: readonly string[] | null;
}

function hasLabels(config: TaskEvidence['config']): boolean {
  return typeof config.id2label === 'object' && config.id2label !== null && Object.keys(config.id2label).length > 0;
}

/** `architectures` all name a bare encoder (`BertModel`, `MPNetModel`), not a `…For…` head. */
function bareArchitecture(config: TaskEvidence['config']): boolean {
  const a = config.architectures;
  return Array.isArray(a) && a.length > 0 && a.every((n) => typeof n === 'string' && /Model$/.test(n) && !/For[A-Z]/.test(n));
}

/**
 * The task of a folder. A `logits` output is a head; a vector output with
 * no `logits` is feature extraction; without a graph to read, the
 * sentence-transformers files or a bare architecture without `id2label`
 * decide. A graph with neither a head nor a vector output, in a folder
 * with no labels, is refused naming the outputs it has.
 */
export function detectTextTask(evidence: TaskEvidence, where: string): TextTask {
  const { config, outputs } = evidence;
  const embeddingFolder = evidence.sentenceTransformers || (bareArchitecture(config) && !hasLabels(config));
  if (outputs === null) return embeddingFolder ? 'feature-extraction' : 'text-classification';
  if (outputs.includes('logits')) return 'text-classification';
  if (outputs.some((n) => EMBEDDING_GRAPH_OUTPUTS.includes(n))) return 'feature-extraction';
  if (hasLabels(config) && !embeddingFolder) return 'text-classification';
  throw new UserError(
    `${where} has neither a classification head nor a hidden-state output: its graph returns ${outputs.join(', ') || 'nothing'}`,
    `a classifier needs a "logits" output (and id2label in config.json); a feature-extraction model needs ${EMBEDDING_GRAPH_OUTPUTS.join(', ')} — export it again, e.g. with optimum-cli export onnx --task text-classification or --task feature-extraction`,
  );
}

/**
 * `--task text-classification` on a graph with no head (hidden-state
 * outputs, no `logits`) is refused naming its outputs, as `--task
 * feature-extraction` on a classifier is (FeatureExtraction.init): there
 * are no class scores to measure or compare.
 */
export function refuseHeadless(evidence: TaskEvidence, where: string): void {
  const { outputs } = evidence;
  if (outputs === null || outputs.includes('logits') || !outputs.some((n) => EMBEDDING_GRAPH_OUTPUTS.includes(n))) return;
  throw new UserError(
    `--task text-classification: ${where} has no classification head; its graph returns ${outputs.join(', ')} (vectors), and text-classification needs a "logits" output`,
    'run it as feature extraction (leave out --task, or --task feature-extraction), or export the model with its head (e.g. optimum-cli export onnx --task text-classification)',
  );
}

/** Reads the evidence from a local folder; `onnxFile` is the graph the row opens. */
export async function taskEvidence(dir: string, onnxFile = 'onnx/model.onnx'): Promise<TaskEvidence> {
  const configPath = join(dir, 'config.json');
  const config = existsSync(configPath) ? readModelJson<TaskEvidence['config']>(configPath) : {};
  const graph = join(dir, onnxFile);
  const outputs = existsSync(graph) ? (await readOnnxSignature(graph)).outputs.map((o) => o.name) : null;
  return { config, sentenceTransformers: hasSentenceTransformersFiles(dir), outputs };
}

/** The task of a local folder (see detectTextTask), or the one `--task` forces. */
export async function folderTask(dir: string, forced: TextTask | null, onnxFile?: string): Promise<TextTask> {
  if (forced === 'text-classification') refuseHeadless(await taskEvidence(dir, onnxFile), dir);
  if (forced !== null) return forced;
  // A missing file is named before the graph is read for its outputs (an empty or unreadable graph would hide it).
  requireModelFiles(dir, onnxFile ?? 'onnx/model.onnx');
  return detectTextTask(await taskEvidence(dir, onnxFile), dir);
}

/**
 * The model of a local folder for its task (detected, or forced with
 * `--task`), initialised. Hub ids are downloaded first by the caller.
 */
export async function openTextModel(dir: string, options: TextClassificationOptions & { readonly task?: TextTask | null } = {}): Promise<TextClassification> {
  const { task, ...rest } = options;
  const chosen = await folderTask(dir, task ?? null, rest.onnxFile);
  return (chosen === 'feature-extraction' ? new FeatureExtraction(dir, rest) : new TextClassification(dir, rest)).init();
}
