/** The shapes of `claude-mem doctor`: one check per line, grouped by area; `--json` prints them as they are. */
import type { HostId } from '../../shared/hosts.js';

export type CheckStatus = 'ok' | 'warn' | 'fail';

export type Area = 'runtime' | 'data' | 'worker' | 'capture' | 'sync' | 'hosts';

export const AREAS: readonly Area[] = ['runtime', 'data', 'worker', 'capture', 'sync', 'hosts'];

export interface Check {
  /** Stable id, e.g. `worker.identity`, `codex.drift`. */
  id: string;
  area: Area;
  status: CheckStatus;
  /** What was looked at and what was found, in one line. */
  evidence: string;
  fix?: string;
  /** The host a check belongs to (host checks, per-host capture checks). */
  host?: HostId;
  /** Longer evidence: the drift diff, a stderr tail. */
  detail?: string;
}

/** What `--fix` changed (or tried to). */
export interface Fixed {
  id: string;
  ok: boolean;
  action: string;
}

export interface DoctorReport {
  version: string;
  ok: boolean;
  checks: Check[];
  fixed: Fixed[];
}

export interface DoctorOptions {
  /** Hosts to check (already resolved); undefined = every host the manifest records. */
  hosts?: HostId[];
  fix: boolean;
  strict: boolean;
  env: NodeJS.ProcessEnv;
  /** Per-probe time box (hook and MCP round trips), ms. */
  probeTimeoutMs?: number;
}

const check = (c: Check): Check => c;
