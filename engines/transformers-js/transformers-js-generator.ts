/**
 * Text generation through transformers.js itself: `AutoModelForCausalLM`
 * and its `generate()` (cache handling, logits processors, greedy sampler),
 * the path a JS user takes, rather than inferbench's greedy loop over a raw
 * session. The text-classification pipeline cannot open a decoder ("Unsupported
 * model type: gpt2"), so `inferbench generate --engines transformers-js`
 * opens decoders here.
 */
import { availableParallelism } from 'node:os';
import type { EngineGenerator, ResolvedSessionOptions } from '../../src/core/engine.js';
import type { EngineSession, SessionDescription } from '../../src/core/engine-session.js';
import type { TensorMap } from '../../src/core/tensor.js';
import { describeOpened, pipelineTarget, transformersSessionOptions } from './session-readback.js';
import type { Device, TransformersJsSessionLike } from './session-readback.js';
import { dawnAdapter } from '../webgpu/dawn-adapter.js';

/** The parts of a transformers.js `PreTrainedModel` used here. */
interface CausalLmLike {
  sessions: Record<string, TransformersJsSessionLike | undefined>;
  generate(args: Record<string, unknown>): Promise<unknown>;
  dispose(): Promise<unknown>;
}

type TensorCtor = new (type: string, data: BigInt64Array, dims: number[]) => unknown;

/** Nested id arrays (what inferbench's sweep passes) become an int64 transformers.js Tensor; Tensors pass through. */
function asTensor(Tensor: TensorCtor, value: unknown, name: string): unknown {
  if (!Array.isArray(value)) return value;
  const rows = value as readonly (readonly (number | bigint)[])[];
  const length = rows[0]?.length ?? 0;
  if (rows.some((r) => r.length !== length)) throw new Error(`${name} rows have different lengths`);
  return new Tensor('int64', BigInt64Array.from(rows.flat(), (v) => BigInt(v)), [rows.length, length]);
}

/** The decoder's session as the sweep sees it: a description and a dispose; single forwards go through generate(). */
class GeneratorSession implements EngineSession {
  constructor(
    private readonly model: CausalLmLike,
    private readonly description: SessionDescription,
  ) {}

  run(_inputs: TensorMap): Promise<TensorMap> {
    return Promise.reject(new Error('transformers-js generates through AutoModelForCausalLM.generate(); it has no single-forward run()'));
  }

  describe(): SessionDescription {
    return this.description;
  }

  async dispose(): Promise<void> {
    await this.model.dispose();
  }
}

/**
 * Opens the decoder folder of `onnxPath` with `AutoModelForCausalLM` on
 * `device`, reading device, dtype and placement back from its session as the
 * classification engine does. `generate()` is greedy (`do_sample: false`), as
 * inferbench's loop, so both paths do the same work per token.
 */
export async function openTransformersJsGenerator(id: string, device: Device, onnxPath: string, options: ResolvedSessionOptions): Promise<EngineGenerator> {
  const { folder, dtype } = pipelineTarget(onnxPath);
  const { AutoModelForCausalLM, Tensor, env, LogLevel } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.logLevel = LogLevel.ERROR;
  const threads = options.threads ?? availableParallelism();
  const sessionOptions = transformersSessionOptions(device, threads);
  const model = (await AutoModelForCausalLM.from_pretrained(folder, {
    local_files_only: true,
    device,
    dtype: dtype as never,
    session_options: sessionOptions,
  } as never)) as unknown as CausalLmLike;
  let description: SessionDescription;
  try {
    const session = model.sessions['model'];
    if (!session) throw new Error(`transformers.js opened ${folder} without a "model" session (sessions: ${Object.keys(model.sessions).join(', ')})`);
    // ORT's WebGPU EP hides its adapter: the row records the one Dawn picks by default with the same loader and ICD (dawn-adapter.ts).
    const probe = device === 'webgpu' ? await dawnAdapter() : undefined;
    if (probe !== undefined && !probe.ok) throw new Error(`the WebGPU session opened but its adapter could not be read: ${probe.reason}`);
    description = await describeOpened(id, session, onnxPath, folder, sessionOptions, threads, ['AutoModelForCausalLM.generate() (transformers.js\'s own generation loop, greedy)'], probe?.adapter);
  } catch (err) {
    await model.dispose();
    throw err;
  }
  const TensorClass = Tensor as unknown as TensorCtor;
  return {
    session: new GeneratorSession(model, description),
    generate: (args) => {
      const { input_ids, attention_mask, ...rest } = args as Record<string, unknown>;
      return model.generate({
        ...rest,
        input_ids: asTensor(TensorClass, input_ids, 'input_ids'),
        ...(attention_mask === undefined ? {} : { attention_mask: asTensor(TensorClass, attention_mask, 'attention_mask') }),
        do_sample: false,
      });
    },
  };
}
