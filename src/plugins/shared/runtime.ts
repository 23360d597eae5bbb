/** createPluginRuntime: the pieces of ./index.ts put together for one plugin instance. */
import { createHookLog, type HookLog } from '../../hook/debug-log.js';
import { contextBudgetMs, contextLimits } from '../../hook/context.js';
import type { CaptureEvent } from '../../shared/capture-event.js';
import type { HostId } from '../../shared/hosts.js';
import { dataPaths, type DataPaths, type Env } from '../../shared/paths.js';
import { createCapturer } from './capture.js';
import { moduleDir, readInstallConfig, type InstallConfig } from './config.js';
import { createContextCache, type ContextKey } from './context.js';
import { createPluginLink, type PluginLink } from './link.js';
import { createRecall, type RecallCallContext } from './recall.js';
import { RECALL_TOOLS, type RecallToolSpec } from './recall-specs.js';

export interface RuntimeOptions {
  host: HostId;
  /** `import.meta.url` of the bundle: `claude-mem.json` is read from beside it. */
  moduleUrl?: string;
  /** Or the folder holding `claude-mem.json` directly. */
  configDir?: string;
  env?: Env;
}

export interface PluginRuntime {
  readonly host: HostId;
  readonly config: InstallConfig;
  readonly paths: DataPaths;
  readonly log: HookLog;
  readonly link: PluginLink;
  /** Sanitizes and sends events in order; resolves when each is acknowledged, spooled or dropped. Never rejects. */
  capture(events: ReadonlyArray<CaptureEvent | undefined | null>): Promise<void>;
  /** Waits (at most `timeoutMs`) for deliveries in flight; for a host shutting down. */
  flush(timeoutMs?: number): Promise<void>;
  /** The context budget in ms (CLAUDE_MEM_CONTEXT_BUDGET_MS, settings.json `contextBudgetMs`, 1500). */
  contextBudgetMs(): number;
  /** The memory context to inject, fetched once per session, within the budget ('' otherwise). Never rejects. */
  context(key: ContextKey, budgetMs?: number): Promise<string>;
  /** Starts fetching a session's context early (e.g. when the session is created). */
  prefetchContext(key: ContextKey): void;
  /** Forgets a session's cached context. */
  forgetContext(sessionId: string): void;
  /** The five recall tools: JSON Schema specs, and their runner (answers are text for the model). Never rejects. */
  readonly recall: {
    tools: readonly RecallToolSpec[];
    run(name: string, args: unknown, ctx: RecallCallContext): Promise<string>;
  };
}

export const DEFAULT_FLUSH_MS = 2_000;

export function createPluginRuntime(opts: RuntimeOptions): PluginRuntime {
  const env = opts.env ?? process.env;
  const config = readInstallConfig(opts.configDir ?? moduleDir(opts.moduleUrl), env);
  const paths = dataPaths(config.dataDir);
  const log = createHookLog(paths.logs, env.CLAUDE_MEM_DEBUG === '1', `plugin ${opts.host}`);
  const link = createPluginLink(paths, config, log, env);
  const capturer = createCapturer(paths, link, log);
  const contexts = createContextCache(opts.host, link, log, () => contextLimits(env, paths).maxTokens);
  const run = createRecall(opts.host, link, log);
  let budget: number | undefined;
  const budgetMs = () => (budget ??= contextBudgetMs(env, paths));

  return {
    host: opts.host,
    config,
    paths,
    log,
    link,
    capture: (events) => capturer.capture(events),
    flush: (timeoutMs = DEFAULT_FLUSH_MS) => capturer.flush(timeoutMs),
    contextBudgetMs: budgetMs,
    context: (key, ms) => contexts.get(key, ms ?? budgetMs()),
    prefetchContext: (key) => contexts.prefetch(key),
    forgetContext: (sessionId) => contexts.forget(sessionId),
    recall: { tools: RECALL_TOOLS, run },
  };
}
