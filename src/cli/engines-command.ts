import { type EngineRegistry, type EngineStatus } from '../core/engine-registry.js';
import { UserError } from '../core/errors.js';
import type { ParsedArgs } from './args.js';
import { wrap } from '../../reports/text-table.js';
import { reportWidth } from './terminal-width.js';

/**
 * `inferbench engines`: a table of every engine (one line each: id,
 * available or not, a short reason), then one "how to enable" block per
 * cause, however many engines share it (the CUDA providers block once for
 * onnx-cuda, onnx-tensorrt and transformers-js-cuda), then one line naming
 * the browsers found with their versions: at most 40 lines at 100 columns
 * (issue 47). `--explain ID` prints one engine's reason and fix in full,
 * `--explain chromium` (or firefox, webkit) what a page offers in that
 * browser, `--wide` every browser's offer, `--json` everything.
 */
export async function enginesCommand(args: ParsedArgs, registry: EngineRegistry): Promise<number> {
  if (args.flags['options'] !== undefined) return (await import('./engine-options-command.js')).engineOptionsCommand(args, registry);
  const explain = args.flags['explain'];
  // A browser engine's rows in Firefox and WebKit (`<id>@<browser>`) are summed up by the browsers' lines instead.
  const statuses = await registry.statusAll(registry.listedIds());
  if (args.flags['json'] === true) {
    process.stdout.write(`${JSON.stringify(statuses.map((s) => ({ id: s.id, description: s.engine?.description ?? null, ...s.availability })), null, 2)}\n`);
    return 0;
  }
  const layout = reportWidth(args);
  const browsers = await import('./browser-lines.js');
  if (typeof explain === 'string') {
    // A browser's name: what a page offers in it (this launches it).
    if (browsers.SHIPPED_BROWSERS.includes(explain)) {
      process.stdout.write(`${(await browsers.browserBlock(layout, explain)).join('\n')}\n`);
      return 0;
    }
    const status = statuses.find((s) => s.id === explain);
    if (status === undefined) throw new UserError(`--explain: no engine or browser "${explain}"`, `use one of ${[...statuses.map((s) => s.id), ...browsers.SHIPPED_BROWSERS].join(', ')}`);
    process.stdout.write(`${explainLines(status, layout).join('\n')}\n`);
    return 0;
  }
  process.stdout.write(`${engineLines(statuses, layout).join('\n')}\n`);
  // One screen: the browsers on a line, what each offers behind --explain NAME; --wide prints every browser's whole.
  const lines = layout.wide ? ['', ...(await browsers.browserBlock(layout))] : await browsers.browserSummary(layout.width);
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/** The longest a reason in the table runs; `--explain` has the rest. */
const SHORT_REASON = 60;

/** Cuts `text` to `max` characters at a word, with an ellipsis when it cut. */
function cut(text: string, max: number): string {
  if ([...text].length <= max) return text;
  const head = [...text].slice(0, max - 1).join('');
  const space = head.lastIndexOf(' ');
  return `${(space > max / 2 ? head.slice(0, space) : head).replace(/[\s,;:(]+$/u, '')}…`;
}

/**
 * The gist of a reason in at most SHORT_REASON characters: parentheses
 * (paths, quoted errors) and what follows a colon go, so "libonnxruntime_…
 * is not next to onnxruntime-node's binding (/long/path): its install …"
 * reads "libonnxruntime_providers_cuda.so is not next to onnxruntime-node's binding".
 */
export function shortReason(reason: string): string {
  let text = reason.replace(/^unavailable: /u, '');
  // Parentheses, innermost first, so nested ones go too.
  for (let before = ''; before !== text; ) {
    before = text;
    text = text.replace(/\s*\([^()]*\)/gu, '');
  }
  const clause = text.split(/: |; /u)[0] ?? text;
  return cut(clause.trim(), SHORT_REASON);
}

/** "onnxruntime-node 1.30.0", or the adapter a WebGPU engine will run on. */
function availableText(s: EngineStatus): string {
  if (!s.availability.available) return '';
  const versions = Object.entries(s.availability.versions).map(([k, v]) => `${k} ${v}`).join(', ');
  return s.availability.adapter !== undefined ? `${versions}; adapter: ${s.availability.adapter.label}` : versions;
}

/**
 * The engine list as text: a table of one line per engine (id, yes or no,
 * the versions or a short reason marked with its cause's number), then one
 * block per distinct fix naming the engines it enables, wrapped to `width`;
 * `wide` keeps every line whole, for grep.
 */
export function engineLines(statuses: readonly EngineStatus[], layout: { readonly width: number; readonly wide: boolean }): string[] {
  const nameWidth = Math.max('engine'.length, ...statuses.map((s) => s.id.length));
  const causes: { enable: string; ids: string[] }[] = [];
  for (const s of statuses) {
    if (s.availability.available) continue;
    const enable = s.availability.enable;
    const known = causes.find((c) => c.enable === enable);
    if (known) known.ids.push(s.id);
    else causes.push({ enable, ids: [s.id] });
  }
  const room = Math.max(20, layout.width - nameWidth - 2 - 'no '.length - 2);
  const row = (s: EngineStatus): string => {
    if (s.availability.available) return `${s.id.padEnd(nameWidth)}  yes  ${layout.wide ? availableText(s) : cut(availableText(s), room)}`;
    const enable = s.availability.enable;
    const mark = `[${causes.findIndex((c) => c.enable === enable) + 1}] `;
    return `${s.id.padEnd(nameWidth)}  no   ${mark}${layout.wide ? shortReason(s.availability.reason) : cut(shortReason(s.availability.reason), room - mark.length)}`;
  };
  const available = statuses.filter((s) => s.availability.available).length;
  const head = `${'engine'.padEnd(nameWidth)}  ok   versions, or why not (--explain ID: in full)`;
  const lines = [layout.wide ? head : cut(head, layout.width), ...statuses.map(row)];
  if (causes.length > 0) {
    const intro = `${available} of ${statuses.length} engines available here. To enable the others, one fix per cause:`;
    lines.push(...(layout.wide ? [intro] : wrap(intro, layout.width)));
    // Each block gets what the screen leaves after the table, two lines at most, one at least.
    const each = Math.max(1, Math.min(BLOCK_LINES, Math.floor((SCREEN_LINES - lines.length) / causes.length)));
    causes.forEach((c, i) => {
      const text = `[${i + 1}] ${c.ids.join(', ')}: ${c.enable}`;
      lines.push(...(layout.wide ? [text] : block(text, `(--explain ${c.ids[0]})`, layout.width, each)));
    });
  }
  return lines;
}

/** The most lines a cause's block takes in the table view; `--explain` has the rest. */
const BLOCK_LINES = 2;
/** The whole listing fits one screen: one line per engine, then the blocks share what is left. */
const SCREEN_LINES = 40;

/** `text` wrapped to `width` under a 4-space hang, cut to `most` lines ending with `more` when it runs longer. */
function block(text: string, more: string, width: number, most: number): string[] {
  const lines = wrap(text, width - 4);
  if (lines.length > most) {
    const kept = lines.slice(0, most);
    kept[most - 1] = `${cut(kept[most - 1] ?? '', width - 4 - more.length - 1)} ${more}`;
    return kept.map((l, j) => (j === 0 ? l : `    ${l}`));
  }
  return lines.map((l, j) => (j === 0 ? l : `    ${l}`));
}

/** `--explain ID`: the engine's description, its availability, and for an unavailable one the reason and the fix in full. */
export function explainLines(s: EngineStatus, layout: { readonly width: number; readonly wide: boolean }): string[] {
  const item = (head: string, text: string): string[] => (layout.wide ? [`${head}${text}`] : wrap(`${head}${text}`, layout.width - 2).map((l, i) => (i === 0 ? l : `  ${l}`)));
  const lines = [s.id, ...(s.engine?.description ? item('', s.engine.description) : [])];
  if (s.availability.available) lines.push(...item('available: ', availableText(s)));
  else lines.push(...item('unavailable: ', s.availability.reason.replace(/^unavailable: /u, '')), ...item('to enable: ', s.availability.enable));
  if (s.engine !== null && s.engine.runsIn !== 'browser' && s.engine.webgpu === true) {
    lines.push(...item('GPU from npm alone: ', 'WebGPU in Node runs on Dawn over Vulkan: it needs libvulkan1 and the GPU\'s Vulkan driver, nothing beyond npm; onnx-cuda, onnx-tensorrt and tfjs-node-gpu need libraries their npm installs download from outside the registry.'));
  }
  return lines;
}
