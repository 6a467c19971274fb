/**
 * The syntax of Hugging Face Hub names, as huggingface_hub's
 * `validate_repo_id` defines it: `org/name`, each part letters, digits,
 * `-`, `_` and `.`, starting and ending with a letter, digit or `_`, no
 * `--` or `..`, the name at most 96 characters. A name of this syntax can
 * never be a path on disk (no `/` at either end, no `..`, no `\`), which is
 * why a worker accepts nothing else from a job.
 */

const PART = /^[A-Za-z0-9_](?:[\w.-]*[A-Za-z0-9_])?$/u;

function partOk(part: string, max: number): boolean {
  return part.length <= max && PART.test(part) && !part.includes('--') && !part.includes('..');
}

/** True for `org/name` exactly (the form a worker accepts). */
export function isHubRepoId(id: unknown): id is string {
  if (typeof id !== 'string') return false;
  const parts = id.split('/');
  return parts.length === 2 && partOk(parts[0] as string, 96) && partOk(parts[1] as string, 96);
}

/** `org/name`, or a legacy canonical name without an org (`gpt2`, `imdb`), which the Hub still resolves: what a local run accepts. */
export function isHubName(id: unknown): id is string {
  return isHubRepoId(id) || (typeof id === 'string' && partOk(id, 96));
}

/**
 * A revision (branch, tag, `refs/pr/1`, a commit): segments of letters,
 * digits, `-`, `_` and `.`, joined by `/`, none empty, `.` or `..`. It
 * names a folder of the Hub cache (`refs/<revision>`), so nothing that
 * could climb out of it passes.
 */
export function isHubRevision(revision: unknown): revision is string {
  if (typeof revision !== 'string' || revision.length === 0 || revision.length > 256) return false;
  return revision.split('/').every((s) => /^[\w.-]+$/u.test(s) && s !== '.' && s !== '..' && !s.startsWith('.'));
}

/** A dataset config or split name (`default`, `plain_text`, `train`): one segment, never a path. */
export function isHubConfigName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= 128 && /^[\w][\w.-]*$/u.test(name) && !name.includes('..');
}
