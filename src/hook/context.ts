/**
 * Context for hosts that wait for it (session start, prompt submit): asked of the worker within
 * a hard budget measured from process start. Past the budget the answer is "no context".
 */
import { readFileSync } from 'node:fs';
import type { DataPaths, Env } from '../shared/paths.js';
import type { HookLog } from './debug-log.js';
import { errorText } from './debug-log.js';
import { contextPath, contextTextOf } from '../shared/worker-api.js';
import { liteRequest } from './http-lite.js';
import type { WorkerLink } from './link.js';

const DEFAULT_CONTEXT_BUDGET_MS = 1500;
/** Kept back from the budget for printing the answer and exiting. */
const EXIT_RESERVE_MS = 40;
/** Below this, asking is pointless. */
const MIN_FETCH_MS = 20;

function clampBudget(v: unknown): number | undefined {
  const n = typeof v === 'string' && v.trim() ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.min(Math.round(n), 60_000) : undefined;
}

function clampTokens(v: unknown): number | undefined {
  const n = typeof v === 'string' && v.trim() ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 100 ? Math.min(Math.round(n), 20_000) : undefined;
}

function readSettings(paths: DataPaths): { contextBudgetMs?: unknown; contextMaxTokens?: unknown } {
  try {
    return (JSON.parse(readFileSync(paths.settings, 'utf8')) as Record<string, unknown>) ?? {};
  } catch {
    return {};
  }
}

interface ContextLimits {
  /** CLAUDE_MEM_CONTEXT_BUDGET_MS, else settings.json `contextBudgetMs`, else 1500 ms. */
  budgetMs: number;
  /** CLAUDE_MEM_CONTEXT_TOKENS, else settings.json `contextMaxTokens`, else the worker's default (1500). */
  maxTokens?: number;
}

/** The time and token budgets of a context injection (settings.json is read only when the env does not say both). */
export function contextLimits(env: Env, paths: DataPaths): ContextLimits {
  const budgetEnv = clampBudget(env.CLAUDE_MEM_CONTEXT_BUDGET_MS);
  const tokensEnv = clampTokens(env.CLAUDE_MEM_CONTEXT_TOKENS);
  if (budgetEnv !== undefined && tokensEnv !== undefined) return { budgetMs: budgetEnv, maxTokens: tokensEnv };
  const s = readSettings(paths);
  return {
    budgetMs: budgetEnv ?? clampBudget(s.contextBudgetMs) ?? DEFAULT_CONTEXT_BUDGET_MS,
    maxTokens: tokensEnv ?? clampTokens(s.contextMaxTokens),
  };
}

export function contextBudgetMs(env: Env, paths: DataPaths): number {
  return contextLimits(env, paths).budgetMs;
}

interface ContextRequest {
  cwd: string;
  host: string;
  sessionId?: string;
  /** 'session' at a session start, 'prompt' when a prompt was submitted (with its text, after privacy). */
  mode?: 'session' | 'prompt';
  prompt?: string;
  maxTokens?: number;
  /** Absolute deadline in milliseconds since process start (see sinceStartMs). */
  deadline: number;
  /** The host reads memory once per session: the worker answers '' after the first time. */
  once?: boolean;
}

/** The prompt as sent to the worker: what a search needs, not the whole paste. */
const MAX_PROMPT_CHARS = 2000;

/**
 * Milliseconds since the process started (the clock of `deadline`). process.uptime() rather than
 * performance.now(): the `performance` global loads perf_hooks on first use.
 */
export const sinceStartMs = (): number => process.uptime() * 1000;

const remaining = (deadline: number) => deadline - EXIT_RESERVE_MS - sinceStartMs();

/** The context text, or '' when the worker cannot answer within the budget. Never throws. */
export async function fetchContext(req: ContextRequest, link: WorkerLink, log: HookLog): Promise<string> {
  try {
    let endpoint = link.endpoint();
    if (!endpoint) {
      // No live worker: start one and use what is left of the budget waiting for it.
      const wait = remaining(req.deadline) - MIN_FETCH_MS * 5;
      if (wait <= 0) return '';
      endpoint = await link.start(wait);
      if (!endpoint) return '';
    }
    const timeoutMs = Math.floor(remaining(req.deadline));
    if (timeoutMs < MIN_FETCH_MS) return '';
    const path = contextPath({
      cwd: req.cwd, host: req.host, session: req.sessionId, once: req.once, mode: req.mode, prompt: req.prompt?.slice(0, MAX_PROMPT_CHARS), maxTokens: req.maxTokens,
    });
    const res = await liteRequest({ port: endpoint.port, auth: endpoint.auth, method: 'GET', path, timeoutMs });
    if (res.status < 200 || res.status >= 300) {
      log.detail(`context: worker answered ${res.status}`);
      return '';
    }
    return contextTextOf(res.body);
  } catch (err) {
    // An answer without the worker's proof is never shown to the agent.
    if ((err as { code?: unknown }).code === 'unproven_answer') {
      link.markDown();
      log.problem(`context: ${errorText(err)}`);
    } else log.detail(`context: ${errorText(err)}`);
    return '';
  }
}
