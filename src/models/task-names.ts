/**
 * The text tasks inferbench runs, apart from the folder detection
 * (text-task.ts) that needs the model loaders, so checking `--task` loads
 * none of them.
 */
export const TEXT_TASKS = ['text-classification', 'feature-extraction'] as const;
export type TextTask = (typeof TEXT_TASKS)[number];
