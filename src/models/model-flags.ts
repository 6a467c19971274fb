/**
 * How a command names its models: `--model` (folder or Hub id), `--revision`
 * and `--config` (a random-init architecture). `run` (the classify
 * scenario's options) and `inspect` read models the same way, so the flags
 * are defined once, here, below both.
 */
import type { FlagSpec } from '../core/flag-spec.js';

export const MODEL_FLAG: FlagSpec = { name: 'model', kind: 'value', arg: 'DIR|ID', repeatable: true, help: 'Hugging Face model folder (config.json, tokenizer.json, onnx/model.onnx) or Hub id (org/name); repeat for several; default: the embedded tiny BERT' };
export const REVISION_FLAG: FlagSpec = { name: 'revision', kind: 'value', arg: 'REV', help: 'Hub branch, tag or commit of --model Hub ids; default main' };
export const CONFIG_FLAG: FlagSpec = { name: 'config', kind: 'value', arg: 'SPEC', repeatable: true, help: 'random-init architecture: a preset (tiny, bert-base, bert-384-hid, bert-6-lay, minilm: an all-MiniLM-L6-v2-shaped embedding model), key=value pairs (hidden=384,layers=6,heads=6) or a JSON file; repeat for several' };
