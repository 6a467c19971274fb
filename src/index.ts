/**
 * Public API of inferbench. Everything a user may import is listed here by
 * name; anything not exported is internal and may change.
 */
export { BenchmarkModel, openOn } from './models/benchmark-model.js';
export type { InputSpec, ExportOptions, OpenOptions as LoadOptions } from './models/benchmark-model.js';
export { TextClassification, REQUIRED_MODEL_FILES } from './models/text-classification.js';
export type { TextClassificationOptions } from './models/text-classification.js';
export { FixedLengthModel } from './models/fixed-length-model.js';
export { DTYPE_SUFFIXES, dtypeNames, parseDtypes, dtypeOnnxFile, dtypePrecision } from './core/dtypes.js';
export type { ModelDtype } from './core/dtypes.js';
export { ARCHITECTURE_PRESETS } from './models/generated/arch-presets.js';
export type { ArchitectureSpec } from './models/generated/arch-presets.js';
export { parseArchitectures, parseArchitectureText } from './models/generated/arch-parse.js';
export { architectureClassifier } from './models/architecture-classifier.js';
export { ensureVariantFile } from './models/generated/variants.js';
export { ensureQuantizedVariant, quantizedCacheRoot, type QuantizeOutcome, type QuantizeRequest } from './models/quantize/quantize-cache.js';
export { downloadModel } from './hub/model-download.js';
export type { ModelDownloadOptions } from './hub/model-download.js';
export { compareVariantOutputs, measureVariantParity } from './models/variant-parity.js';
export type { VariantParity } from './models/variant-parity.js';
export { attachTexts, textsOf } from './core/raw-texts.js';
export { defaultClassifier } from './models/default-classifier.js';
export { Benchmark } from './runs/benchmark.js';
export { resolveBenchmarkOptions, DEFAULT_BATCH_SIZES, DEFAULT_LIMIT, DEFAULT_WARMUP_BATCHES } from './scenarios/classify/benchmark-options.js';
export type { BenchmarkOptions, ResolvedBenchmarkOptions, ProgressEvent, DataItemProcessCallback } from './scenarios/classify/benchmark-options.js';
export { EngineRegistry, registerEngine, unavailableText } from './core/engine-registry.js';
export { defaultRegistry, BUILTIN_ENGINE_FACTORIES, ENGINE_IDS, asEngineId } from '../engines/registry.js';
export type { EngineFactory, EngineStatus } from './core/engine-registry.js';
/** @deprecated An engine declares its format (`Engine.format`); these read a built-in target and stay because the public API exported them. */
export { engineIdFor, formatOf } from '../engines/engine-target.js';
export type { Engine, EngineId, EngineTarget, OnnxDevice, TfjsBackend, TfjsExecutor, ModelFormat, BuiltinModelFormat, Availability, ResolvedSessionOptions } from './core/engine.js';
export { registerModelFormat, modelFormat, formatLabel, FormatRefused } from './core/model-formats.js';
export type { ModelFormatSpec } from './core/model-formats.js';
export type { EngineSession, SessionDescription, Precision, ProviderPlacement } from './core/engine-session.js';
export type { HostTensor, HostDType, TensorMap } from './core/tensor.js';
export { hostTensor } from './core/tensor.js';
export type { CellResult, CompletedCell, ErroredCell, SkippedCell, CellKey, CellSamples, CellRound, BetweenRounds, HostNoise, CellHost, RunRecord, ModelInfo, ModelVariantInfo, EnvironmentInfo } from './core/results.js';
export { computeStatistics, betweenRoundsOf, percentileOfSorted, throughput, PERCENTILE_METHOD, welchTTest, ratioInterval95, studentTCdf, studentTQuantile } from './core/statistics.js';
export { DEFAULT_ROUNDS, DEFAULT_STOP_RULE } from './core/stop-rule.js';
export type { SampleStatistics, WelchTest } from './core/statistics.js';
export { UserError, CellSkip } from './core/errors.js';
export { inspectModel, resolveOnnxPath } from './models/inspect-model.js';
export type { ModelInspection, EngineVerdict, InspectedValue } from './models/inspect-model.js';
export { collectEnvironment } from './core/environment.js';
export { Dataset } from '../datasets/dataset.js';
export type { DataRow } from '../datasets/dataset.js';
export { openDataset, EMBEDDED_DATASET_NAME } from '../datasets/open-dataset.js';
export type { OpenDatasetOptions } from '../datasets/open-dataset.js';
export { resolveHubEnv } from './hub/hub-env.js';
export type { HubEnv } from './hub/hub-env.js';
export { resolveColumns } from '../datasets/columns.js';
export type { ResolvedColumns } from '../datasets/columns.js';
export { renderTerminalReport } from './scenarios/classify/terminal-report.js';
export { writeRunFiles } from '../reports/write-run.js';
export {
  baselineRows,
  cellFigures,
  engineComparisons,
  viewCellKey,
  coreScalingView,
  batchScalingView,
  latencyDistributionView,
  defaultCoreScalingBatchSize,
  defaultBatchScalingThreads,
  parityFailures,
} from '../reports/run-views.js';
export type {
  BaselineRow,
  CellFigures,
  ScopeFigures,
  Scope,
  ScopeComparison,
  ViewCellKey,
  ScalingView,
  ScalingSeries,
  ScalingPoint,
  ScalingGap,
  LatencyDistributionView,
  LatencyBox,
} from '../reports/run-views.js';
export { coreScalingChartSpec, batchScalingChartSpec } from '../reports/view-charts.js';
export { runComparisonChartSpec } from '../reports/run-comparison-chart.js';
export { latencyDistributionChartSpec } from '../reports/latency-chart.js';
export { compareRuns, callDifference, intervalsOverlap, roundMeansOf, DEFAULT_MIN_EFFECT, COMPARE_ALPHA } from '../reports/run-comparison.js';
export type { RunComparison, CellComparison, ComparisonCall, DifferenceCall } from '../reports/run-comparison.js';
export { readRunRecord } from '../reports/read-run.js';
export { renderPng, renderSvg } from '../reports/png-chart.js';
export { HistoryStore, HISTORY_FILE } from './runs/history/history-store.js';
export { executeRecorded } from './runs/history/recorded-run.js';
export { CLASSIFY_SCENARIO } from './scenarios/classify/classify-scenario.js';
export { GENERATE_SCENARIO } from './scenarios/generate/generate-scenario.js';
export { TRAIN_SCENARIO } from './scenarios/train/train-scenario.js';
export { LOAD_SCENARIO } from './scenarios/load/load-scenario.js';
export type { Scenario, ScenarioRunHooks } from './scenarios/scenario-registry.js';
export type { RecordOptions, RecordedOutcome } from './runs/history/recorded-run.js';
export type { QueueRunOptions } from './scenarios/classify/classify-queue.js';
export { recordOf } from './runs/history/entry-record.js';
export type { HistoryEntry, HistoryDetail, HistoryState, HistorySource, HeadlineFigure } from './runs/history/history-entry.js';
export { startDashboard } from './dashboard/server.js';
export type { Dashboard, DashboardOptions } from './dashboard/server.js';
export { BenchmarkWrapper } from './scenarios/generate/benchmark-wrapper.js';
export type { BenchmarkWrapperOptions, GenerationMeasurement } from './scenarios/generate/benchmark-wrapper.js';
export { TextGeneration, REQUIRED_GENERATION_FILES } from './models/text-generation.js';
export { GreedyGenerator } from './models/greedy-loop.js';
export type { DecoderSpec } from './models/greedy-loop.js';
export type { GenerateArgs, GenerationModelLike, TokenStreamer, TokenTensorLike } from './core/generate-args.js';
export { defaultGenerator } from './models/default-generator.js';
export { runGenerationSweep, resolveGenerationSweep } from './scenarios/generate/generation-sweep.js';
export type { GenerationSweepOptions, GenerationProgress } from './scenarios/generate/generation-sweep.js';
export { generateConfig } from './scenarios/generate/generate-run.js';
export { executeGenerate, executeTrain, executeLoad } from './runs/library-runs.js';
export type { GenerateConfig, GenerateOutcome } from './scenarios/generate/generate-run.js';
export type {
  GenerationRunRecord,
  GenerationCell,
  CompletedGenerationCell,
  ErroredGenerationCell,
  SkippedGenerationCell,
  GenerationCellKey,
  GenerationSample,
} from './scenarios/generate/generation-results.js';
export { renderGenerationReport } from './scenarios/generate/generation-report.js';
export { writeGenerationFiles } from './scenarios/generate/generation-files.js';
export { trainConfig, checkTrainConfig } from './scenarios/train/train-run.js';
export type { TrainConfig, TrainOutcome, TrainHooks } from './scenarios/train/train-run.js';
export { runTrainingSweep } from './scenarios/train/training-sweep.js';
export type { TrainingSweepOptions, TrainingProgress } from './scenarios/train/training-sweep.js';
export type { EngineTrainer, TrainerOptions, TrainOptimizer, TrainStepResult } from './core/engine.js';
export type {
  TrainingRunRecord,
  TrainingCell,
  CompletedTrainingCell,
  ErroredTrainingCell,
  SkippedTrainingCell,
  TrainingCellKey,
  TrainingStep,
  TrainingLosses,
} from './scenarios/train/training-results.js';
export { renderTrainingReport } from './scenarios/train/training-report.js';
export { writeTrainingFiles } from './scenarios/train/training-files.js';
export { loadConfig, checkLoadConfig } from './scenarios/load/load-run.js';
export type { LoadConfig, LoadOutcome, LoadHooks } from './scenarios/load/load-run.js';
export { runLoadSweep } from './scenarios/load/load-sweep.js';
export type { LoadSweepOptions, LoadProgress } from './scenarios/load/load-sweep.js';
export { serveSchedule } from './scenarios/load/serve-loop.js';
export type { BatchHandler, BatcherSettings, ServedProbe } from './scenarios/load/serve-loop.js';
export { drawSchedule } from './scenarios/load/arrival-schedule.js';
export { RealClock, VirtualClock } from './scenarios/load/clock.js';
export type { Clock } from './scenarios/load/clock.js';
export { parseLatencyGoal } from './scenarios/load/latency-goal.js';
export { summarizeRequests } from './scenarios/load/load-summary.js';
export type {
  LoadRunRecord,
  LoadCell,
  CompletedLoadCell,
  LoadProbe,
  LoadSummary,
  LoadSettings,
  LatencyGoal,
  RequestSamples,
  ArrivalProcess,
} from './scenarios/load/load-results.js';
export { renderLoadReport } from './scenarios/load/load-report.js';
export { writeLoadFiles } from './scenarios/load/load-files.js';
/** The names these had while the load test was called `server`; kept so code written against them still runs. */
export { renderLoadReport as renderServerReport } from './scenarios/load/load-report.js';
export { writeLoadFiles as writeServerFiles } from './scenarios/load/load-files.js';
export { loadRateRows, loadPeakRows, hockeyStickView, latencyCdfView } from './scenarios/load/load-views.js';
