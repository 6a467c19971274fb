/**
 * The checks every generated architecture's config shares (positive integer
 * sizes, heads dividing the width, layer-norm epsilon, seed), so the encoder
 * and the decoder configs refuse the same mistakes with the same words; each
 * config adds only its own rules. `what` names the config in messages
 * ("Model config", "Decoder config").
 */
import { UserError } from '../../core/errors.js';

export function checkConfigBasics<C extends object, K extends keyof C & string>(
  cfg: C,
  what: string,
  sizes: { readonly keys: readonly K[]; readonly defaults: Readonly<Pick<C, K>> },
  heads: { readonly width: K; readonly heads: K },
  defaultEps: string,
): void {
  const record = cfg as unknown as Record<string, unknown>;
  for (const key of sizes.keys) {
    const v = record[key];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) {
      throw new UserError(`${what} key ${key} must be a positive integer, got ${JSON.stringify(v)}.`, `Set ${key} to a whole number greater than 0 (default ${String(sizes.defaults[key])}).`);
    }
  }
  const width = record[heads.width] as number;
  const count = record[heads.heads] as number;
  if (width % count !== 0) {
    const options = divisorsOf(width).filter((d) => d > 1).slice(0, 6);
    throw new UserError(
      `${what} key ${heads.width} (${width}) must be divisible by ${heads.heads} (${count}).`,
      `Choose ${heads.heads} among the divisors of ${heads.width}${options.length ? ` (${options.join(', ')})` : ''}, or change ${heads.width}.`,
    );
  }
  const eps = record['layerNormEps'];
  if (typeof eps !== 'number' || !Number.isFinite(eps) || eps <= 0) {
    throw new UserError(`${what} key layerNormEps must be a small positive number, got ${JSON.stringify(eps)}.`, `Set layerNormEps to e.g. ${defaultEps}.`);
  }
  const seed = record['seed'];
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new UserError(`${what} key seed must be an integer from 0 to 4294967295, got ${JSON.stringify(seed)}.`, 'Set seed to a whole number such as 42.');
  }
}

function divisorsOf(n: number): number[] {
  const out: number[] = [];
  for (let d = 1; d <= Math.min(n, 64); d++) if (n % d === 0) out.push(d);
  return out;
}
