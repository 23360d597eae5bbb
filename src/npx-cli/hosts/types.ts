/**
 * One module per host (src/npx-cli/hosts/<id>.ts), all with this interface. The installer,
 * uninstall and doctor read hosts only through it; adding a host is adding one file.
 */
import type { Change } from '../engine/index.js';
import type { HostId } from '../../shared/hosts.js';
import type { Env } from '../../shared/paths.js';
import type { Check } from '../doctor/types.js';

/** How a host's sessions reach memory. Exactly one capture writer per host. */
export type CaptureWriter = 'hooks' | 'transcript' | 'plugin' | 'providers' | 'none';

/** How a host's agent reads memory back. */
export type RecallPath = 'mcp' | 'native-tools' | 'mcp+native-tools' | 'providers' | 'none';

export interface DetectEvidence {
  /** What was found: a directory, a binary on PATH, an env override. */
  kind: 'dir' | 'binary' | 'env' | 'file';
  detail: string;
}

export interface Detection {
  installed: boolean;
  evidence: DetectEvidence[];
  /** Version from `--version` where cheap, else undefined. */
  version?: string;
  /** Host-specific facts the plan needs (e.g. Kimi generation, OpenCode plugin API). */
  facts: Record<string, string | boolean | undefined>;
}

export interface InstallContext {
  env: Env;
  home: string;
  dataDir: string;
  /** Absolute path of node, and of the entry hosts run (the launcher in the data directory, install/runtime.ts). */
  nodePath: string;
  entryPath: string;
  /** Root of the installed package (templates/ and dist/ live under it). */
  packageRoot: string;
  detection: Detection;
  /** Other hosts selected in the same run (for single-writer overlaps). */
  selected: readonly HostId[];
}

/**
 * A setting of the host's own that switches off every hook, ours included, which the user turned
 * off (Codex `[features] hooks = false`, Claude Code `"disableAllHooks": true`). The installer
 * never changes it without the user's say (a question, or --enable-hooks), and says capture is off.
 */
export interface KillSwitch {
  /** The setting as the user wrote it, e.g. `[features] hooks = false`. */
  setting: string;
  file: string;
  /** How to turn capture on by hand. */
  howToEnable: string;
  /** The changes that turn it on (made with consent; uninstall puts the setting back). */
  enable: Change[];
}

export interface HostPlan {
  capture: CaptureWriter;
  recall: RecallPath;
  changes: Change[];
  /** The host's own hook switch is off: nothing is captured until it is turned on. */
  killSwitch?: KillSwitch;
  /** Plain-language next steps shown in the summary (e.g. trust Codex hooks in /hooks). */
  nextSteps: string[];
  /** Why capture is limited or absent, when it is. */
  notes: string[];
}

type CheckStatus = 'ok' | 'warn' | 'fail';

export interface HostCheck {
  id: string; // stable, e.g. `codex.hooks-feature`
  status: CheckStatus;
  evidence: string;
  fix?: string;
}

/** What the single-writer planner decided for one selected host. */
export interface WriterDecision {
  capture: CaptureWriter;
  recall: RecallPath;
  /** Sentences for the summary: overlaps and how they are resolved. */
  detail: string[];
  /** Overlaps recorded in the manifest (`{ with, resolution }`). */
  overlaps: Array<{ with: string; resolution: string }>;
  /** When set, the host is not installed: nothing of its own would capture. */
  skip?: string;
}

/** What the run tells a host module settling its writers. */
export interface WriterRun {
  transcriptWatchPath: string;
  codexSubagentTranscripts: boolean;
  /** The Codex subagent watch entry (tests give their own; otherwise built from the shipped schema). */
  codexSubagentWatch?: () => unknown;
}

/** What a host module's settleWriters gets: its plan, the run, its decision so far, its changes. */
export interface WriterSettlement {
  plan: HostPlan;
  input: WriterRun;
  decision: WriterDecision;
  changes: Change[];
}

/** How a host's own trust store stands with our hooks, for hosts that run only trusted hooks. */
export interface HookTrust {
  state: 'trusted' | 'untrusted' | 'partial' | 'missing' | 'unavailable' | 'not-asked';
  /** Plain-language evidence (what the host reported, or why we could not ask it). */
  detail: string;
  fix?: string;
  hooks: Array<{ key: string; event: string; trust: string }>;
}

/** The parts of a host's install result an after-apply step reads and adds to. */
interface StepResult {
  capture: CaptureWriter | null;
  trust?: HookTrust;
  captureDetail: string[];
  nextSteps: string[];
  warnings: string[];
}

export interface AfterApplyInput {
  result: StepResult;
  /** The host's files this install wrote. */
  files: string[];
  /** The user agreed to the host's own steps (--yes, or the interactive confirm). */
  consent: boolean;
  env: Env;
  paths: { manifest: string; backups: string };
  progress(message: string, level: 'info' | 'ok' | 'warn' | 'error'): void;
}

/** A step of the host's own after its files are written (e.g. asking it to trust our hooks). */
export interface AfterApply {
  /** The line the interactive plan shows for this step, or undefined when it will not run. */
  preview(decision: WriterDecision | undefined): string | undefined;
  run(step: AfterApplyInput): Promise<void>;
}

/** What doctor gives a host's own check of its registered hooks. */
export interface HooksCheckContext {
  env: Env;
  paths: { root: string };
  probeTimeoutMs: number;
}

export interface HostModule {
  id: HostId;
  label: string;
  aliases: readonly string[];
  detect(env: Env): Promise<Detection>;
  plan(ctx: InstallContext): Promise<HostPlan>;
  /** Host-specific prerequisites for doctor (beyond drift, which doctor derives from the manifest). */
  checks?(ctx: InstallContext): Promise<HostCheck[]>;
  /**
   * Which program reads a hooks file, for hosts whose flavours each read their own file (doctor
   * counts our hook once per program). Without it, every file of the host is one program's.
   */
  hookReader?(file: string): string;
  /**
   * Settles this host's capture writers in the single-writer planner, when the default (a transcript
   * watch is kept only when it is the capture writer) is not enough. Returns the changes to make.
   */
  settleWriters?(s: WriterSettlement): Change[] | Promise<Change[]>;
  /** Runs once its files are written (installed, or installed with capture off). */
  afterApply?: AfterApply;
  /** Doctor asks the host itself about our registered hooks (run when some are registered). */
  hooksCheck?(ctx: HooksCheckContext): Promise<Check>;
}
