/**
 * Which transformers.js pipeline an open builds, and how it is called: the
 * text-classification pipeline for a classifier, the feature-extraction one
 * (pooled and normalised by the pipeline when it can pool as the model
 * says) for a sentence-embedding model. One definition for Node
 * (transformers-js) and the browser page (browser-transformers-js), so both
 * run the same pipeline on the same model.
 */
import type { ResolvedSessionOptions } from '../../src/core/engine.js';

export const PIPELINE_NOTE = "engine time is the pipeline's own ONNX forward; end to end is the whole pipeline call, which includes tokenization and post-processing (text-classification pipeline)";

/** Pooling modes the feature-extraction pipeline computes itself (`pooling` option); others run it with 'none' and the model pools. */
const PIPELINE_POOLING: Readonly<Record<string, string>> = { mean: 'mean', cls: 'cls' };

/** A pipeline to build: its task, the options of each call (null: none, and the forward's own outputs are read) and the note that says so. */
export interface PipelineTask {
  readonly task: 'text-classification' | 'feature-extraction';
  readonly call: { readonly pooling: string; readonly normalize: boolean } | null;
  readonly note: string;
}

/**
 * The pipeline task and call options for an open: feature extraction with
 * the model's pooling when the pipeline can do it, with no pooling otherwise
 * (the raw token vectors are then pooled by the model); else the classifier.
 */
export function pipelineTask(options: Pick<ResolvedSessionOptions, 'featureExtraction'>): PipelineTask {
  const fe = options.featureExtraction;
  if (!fe) return { task: 'text-classification', call: null, note: PIPELINE_NOTE };
  const pooling = fe.pooling.length === 1 ? PIPELINE_POOLING[fe.pooling[0] as string] : undefined;
  const note = PIPELINE_NOTE.replace('text-classification pipeline', 'feature-extraction pipeline');
  if (pooling === undefined) return { task: 'feature-extraction', call: null, note: `${note}; the pipeline cannot pool ${fe.pooling.join(' + ')}, so it returns token vectors and the model pools them` };
  return { task: 'feature-extraction', call: { pooling, normalize: fe.normalize }, note: `${note}; pooling ${pooling}${fe.normalize ? ' and L2 normalisation' : ''} by the pipeline` };
}
