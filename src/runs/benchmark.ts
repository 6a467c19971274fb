/**
 * `Benchmark`: the classification sweep (src/scenarios/classify/
 * classify-benchmark.ts) with the built-in launchers, as the public API,
 * the CLI's runs and the queue's workers construct it. The sweep itself is
 * handed its launchers because launchers sit above scenarios; this layer
 * sees both, so it is where the two meet.
 */
import { ClassifyBenchmark } from '../scenarios/classify/classify-benchmark.js';
import type { BenchmarkOptions } from '../scenarios/classify/benchmark-options.js';
import { BUILTIN_LAUNCHERS } from './builtin-launchers.js';

export { classifyLaunch, classifyPageLaunch, type GroupHooks } from '../scenarios/classify/classify-benchmark.js';

/** A classification benchmark whose open groups run where its options say: this process, a child process per group, or a browser page. */
export class Benchmark extends ClassifyBenchmark {
  constructor(options: BenchmarkOptions = {}) {
    super(options, BUILTIN_LAUNCHERS);
  }
}
