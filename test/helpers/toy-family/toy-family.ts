/**
 * The toy engine family as a plug-in module: what `--engine-module`
 * (and `engineModules`) names. Importing it registers the family's format
 * (toy-format.ts) and exports its engines; nothing outside this folder
 * names the family.
 */
import './toy-format.js';
import { toyEngine } from './toy-engine.js';

export const engines = [toyEngine()];
