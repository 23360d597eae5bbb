/** The declarative change engine: plan (dry run), apply, revert. Host modules only describe changes. */
export type {
  Change, ChangeKind, ChangeRecord, CommentStyle, EntryMatcher, FileChange, FileFormat, JsonArrayUpsertChange, JsonSetChange,
  HostMeta, KeyPath, Manifest, ManifestFile, ManifestHost, MatchRule, PlannedRecord, Previous, StoredChange, StoredFileChange, TextBlockChange,
  TomlArrayEntryChange, TomlData, TomlSetChange, TomlTableChange, YamlSetChange,
} from './types.js';
export { ConfigConflictError, ConfigParseError, EngineError } from './errors.js';
export { planChanges, failedHosts, type PlannedFile } from './file-plan.js';
export { applyPlan, type ApplyOptions, type ApplySummary } from './apply.js';
export { revertFromManifest, revertManifest, type RevertOptions, type RevertSummary } from './revert.js';
export { loadManifest, MANIFEST_SCHEMA_VERSION } from './manifest.js';
export { renderPlan, unifiedDiff } from './diff.js';
export { markers as textBlockMarkers } from './block.js';
export { matches } from './match.js';
