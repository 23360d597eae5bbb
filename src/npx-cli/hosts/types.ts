/**
 * One module per host (src/npx-cli/hosts/<id>.ts), all with this interface. The installer,
 * uninstall and doctor read hosts only through it; adding a host is adding one file.
 */
import type { Change } from '../engine/index.js';
import type { HostId } from '../../shared/hosts.js';
import type { Env } from '../../shared/paths.js';

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

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface HostCheck {
  id: string; // stable, e.g. `codex.hooks-feature`
  status: CheckStatus;
  evidence: string;
  fix?: string;
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
}
