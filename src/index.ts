/**
 * Public API of inferbench. Everything a user may import is listed here by
 * name; anything not exported is internal and may change.
 */
export { BenchmarkModel } from './benchmark-model.js';
export type { InputSpec, ExportOptions } from './benchmark-model.js';
export { TextClassification, REQUIRED_MODEL_FILES } from './text-classification.js';
export type { TextClassificationOptions } from './text-classification.js';
export { FixedLengthModel } from './fixed-length-model.js';
export { DTYPE_SUFFIXES, dtypeNames, parseDtypes, dtypeOnnxFile, dtypePrecision } from './model-dtypes.js';
export type { ModelDtype } from './model-dtypes.js';
export { ARCHITECTURE_PRESETS } from './default-model/arch-presets.js';
export type { ArchitectureSpec } from './default-model/arch-presets.js';
export { parseArchitectures, parseArchitectureText } from './default-model/arch-parse.js';
export { architectureClassifier } from './architecture-classifier.js';
export { ensureVariantFile } from './default-model/variants.js';
export { downloadModel } from './hub/model-download.js';
export type { ModelDownloadOptions } from './hub/model-download.js';
export { compareVariantOutputs, measureVariantParity } from './variant-parity.js';
export type { VariantParity } from './variant-parity.js';
export { attachTexts, textsOf } from './raw-texts.js';
export { defaultClassifier } from './default-classifier.js';
export { Benchmark } from './benchmark.js';
export { resolveBenchmarkOptions, DEFAULT_BATCH_SIZES, DEFAULT_LIMIT, DEFAULT_WARMUP_BATCHES } from './benchmark-options.js';
export type { BenchmarkOptions, ResolvedBenchmarkOptions, ProgressEvent, DataItemProcessCallback } from './benchmark-options.js';
export { EngineRegistry, defaultRegistry, BUILTIN_ENGINE_FACTORIES, unavailableText } from './engine-registry.js';
export type { EngineFactory, EngineStatus } from './engine-registry.js';
export { ENGINE_IDS, asEngineId, engineIdFor } from './engine.js';
export type { Engine, EngineId, EngineTarget, OnnxDevice, TfjsBackend, Availability, ResolvedSessionOptions } from './engine.js';
export type { EngineSession, SessionDescription, Precision, ProviderPlacement } from './session.js';
export type { HostTensor, HostDType, TensorMap } from './tensor.js';
export { hostTensor } from './tensor.js';
export type { CellResult, CompletedCell, ErroredCell, SkippedCell, CellKey, CellSamples, RunRecord, ModelInfo, ModelVariantInfo, EnvironmentInfo } from './results.js';
export { computeStatistics, percentileOfSorted, throughput, PERCENTILE_METHOD } from './statistics.js';
export type { SampleStatistics } from './statistics.js';
export { UserError, CellSkip } from './errors.js';
export { inspectModel, resolveOnnxPath } from './inspect-model.js';
export type { ModelInspection, EngineVerdict, InspectedValue } from './inspect-model.js';
export { collectEnvironment } from './environment.js';
export { Dataset } from '../datasets/dataset.js';
export type { DataRow } from '../datasets/dataset.js';
export { openDataset, EMBEDDED_DATASET_NAME } from '../datasets/open-dataset.js';
export type { OpenDatasetOptions } from '../datasets/open-dataset.js';
export { resolveHubEnv } from './hub/hub-env.js';
export type { HubEnv } from './hub/hub-env.js';
export { resolveColumns } from '../datasets/columns.js';
export type { ResolvedColumns } from '../datasets/columns.js';
export { renderTerminalReport } from '../reports/terminal-report.js';
export { writeRunFiles } from '../reports/write-run.js';
export { baselineRows, coreScalingView, batchScalingView, latencyDistributionView, defaultCoreScalingBatchSize, defaultBatchScalingThreads, parityFailures } from '../reports/views.js';
export type { BaselineRow, ScalingView, ScalingSeries, ScalingPoint, ScalingGap, LatencyDistributionView, LatencyBox } from '../reports/views.js';
export { coreScalingChartSpec, batchScalingChartSpec, latencyDistributionChartSpec, runComparisonChartSpec } from '../reports/view-charts.js';
export { compareRuns, callDifference, intervalsOverlap } from '../reports/run-comparison.js';
export type { RunComparison, CellComparison, ComparisonCall } from '../reports/run-comparison.js';
export { readRunRecord } from '../reports/read-run.js';
export { renderPng, renderSvg } from '../reports/png-chart.js';
export { HistoryStore, HISTORY_FILE } from './history/history-store.js';
export { executeRecordedRun } from './history/recorded-run.js';
export type { RecordOptions, RecordedOutcome } from './history/recorded-run.js';
export { recordOf } from './history/history-entry.js';
export type { HistoryEntry, HistoryDetail, HistoryState, HistorySource, HeadlineFigure } from './history/history-entry.js';
export { startDashboard } from './server/server.js';
export type { Dashboard, DashboardOptions } from './server/server.js';
export { BenchmarkWrapper } from './generation/benchmark-wrapper.js';
export type { BenchmarkWrapperOptions, GenerationMeasurement } from './generation/benchmark-wrapper.js';
export { TextGeneration, REQUIRED_GENERATION_FILES } from './generation/text-generation.js';
export { GreedyGenerator } from './generation/greedy-loop.js';
export type { DecoderSpec } from './generation/greedy-loop.js';
export type { GenerateArgs, GenerationModelLike, TokenStreamer, TokenTensorLike } from './generation/generate-args.js';
export { defaultGenerator } from './default-generator.js';
export { runGenerationSweep, resolveGenerationSweep } from './generation/generation-sweep.js';
export type { GenerationSweepOptions, GenerationProgress } from './generation/generation-sweep.js';
export { executeGenerate, generateConfig } from './generation/generate-job.js';
export type { GenerateConfig, GenerateOutcome } from './generation/generate-job.js';
export type {
  GenerationRunRecord,
  GenerationCell,
  CompletedGenerationCell,
  ErroredGenerationCell,
  SkippedGenerationCell,
  GenerationCellKey,
  GenerationSample,
} from './generation/generation-results.js';
export { renderGenerationReport } from '../reports/generation-report.js';
export { writeGenerationFiles } from '../reports/generation-files.js';
