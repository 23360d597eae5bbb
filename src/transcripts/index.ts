/** Transcript capture: schemas, the engine, one-file processing and the watcher the worker runs. */
export { startTranscriptWatcher, watchMarkerKey } from './watcher.js';
export type { StartWatcherArgs, StartWatcherOptions, TranscriptLog, TranscriptWatcher } from './watcher.js';
export { compileSchema, fileInfo } from './engine.js';
export type { CompiledSchema, FileState } from './engine.js';
export { processFile, DEFAULT_MAX_LINE_BYTES } from './processor.js';
export { validateConfig, validateSchema, readConfigFile, parseJsonText, formatPath } from './config.js';
export { loadShippedSchemas, shippedSchemaDir } from './shipped.js';
export { compileGlob, expandGlob, expandVars, globMatches } from './glob.js';
export { defaultWatch, defaultWatchConfig } from './defaults.js';
export { ingestFiles } from './ingest.js';
export { historySources, historySourcesFor, ingestHistoryLog } from './history.js';
export type { HistoryIngestArgs, HistoryIngestResult, HistoryLog, HistorySource } from './history.js';
export type * from './types.js';
