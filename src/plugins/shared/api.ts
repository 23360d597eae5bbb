/**
 * claude-mem's runtime for native plugins (OpenCode today; meant for Pi, OMP, OpenClaw, DeepSeek
 * Harness, Goose, ...). Import from this file only; it is bundled into the plugin (node built-ins
 * only, so it runs under Node and Bun alike). Not named index.ts on purpose: the build bundles every
 * `src/plugins/<dir>/index.ts` as a host plugin.
 *
 *   const rt = createPluginRuntime({ host: 'opencode', moduleUrl: import.meta.url });
 *
 * Install facts: the installer writes `claude-mem.json` ({ host, dataDir, nodePath, entryPath })
 * beside the bundle. At run time CLAUDE_MEM_DATA_DIR wins, then that file's dataDir, then
 * ~/.claude-mem. nodePath + entryPath let the plugin start the worker (`node bin.js start --wait 0`,
 * detached, under the worker's start lock) when none runs.
 *
 * Capture — `rt.capture(events)`: CaptureEvents (src/shared/capture-event.ts; `source: 'plugin'`,
 *   the host's own ids: session, prompt, tool call). Privacy is applied first (sanitizeEvent), then
 *   each batch is acknowledged by the worker (POST /api/events) or fsynced to the spool; batches go
 *   out in call order. Batches still in flight when the process exits are spooled synchronously.
 *   Returns a promise that never rejects; plugins usually await it with a small cap (withinBudget).
 *   Helpers: `baseEvent(...)`, `isOwnRecallTool(name)` / `isOwnRecallCall(name, input)` (do not capture our own recall calls).
 * Flush — `rt.flush(ms = 2000)`: waits for deliveries in flight (call it from the host's
 *   dispose/shutdown hook).
 * Context — `rt.context({ cwd, sessionId }, budgetMs?)`: the worker's GET /api/context text for
 *   the project of cwd (the asking session left out), fetched once per session and cached; waits at
 *   most the budget (`rt.contextBudgetMs()`: CLAUDE_MEM_CONTEXT_BUDGET_MS / settings / 1500 ms) and
 *   answers '' rather than wait. `rt.prefetchContext(key)` starts early; `rt.forgetContext(id)`.
 * Recall — `rt.recall.tools`: the five tools (mem_search, mem_timeline, mem_get_observations,
 *   mem_save, mem_context) as { name, title, description, parameters: JSON Schema, readOnly };
 *   `rt.recall.run(name, args, { cwd, sessionId })` → the answer text, same format as the MCP
 *   server's. Never rejects: bad arguments and a missing worker are answers too.
 * Guards — `withinBudget(log, label, ms, fallback, fn)` and `guard(log, label, ms, fn)`: a handler
 *   never throws into the host and never holds it past its budget.
 */
export { createPluginRuntime, DEFAULT_FLUSH_MS, type PluginRuntime, type RuntimeOptions } from './runtime.js';
export { PLUGIN_CONFIG_FILE, readInstallConfig, moduleDir, type InstallConfig } from './config.js';
export type { ContextKey } from './context.js';
export type { RecallCallContext } from './recall.js';
export { RECALL_TOOLS, RECALL_TOOL_NAMES, isOwnRecallCall, isOwnRecallTool, isRecallToolName, type RecallToolName, type RecallToolSpec } from './recall-specs.js';
export { guard, withinBudget } from './guard.js';
export { baseEvent, type EventBase } from './events.js';
