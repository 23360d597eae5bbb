/**
 * The extension Pi and OMP load (`export default function (pi) {...}`).
 *
 * | host event            | stored as                                   |
 * |-----------------------|---------------------------------------------|
 * | session_start         | session_start (reason; not on `reload`)     |
 * | before_agent_start    | prompt; answers with memory context         |
 * | tool_execution_start  | tool_use (toolCallId, args)                 |
 * | tool_result           | tool_result (input, content+details, error) |
 * | agent_end             | assistant_message (last assistant text)     |
 * | session_compact       | compact (summary)                           |
 * | session_shutdown      | session_end (reason; not on `reload`)       |
 *
 * Capture runs only on a host release whose extension API is known (HostApiSpec); elsewhere the
 * extension keeps recall (context, and Pi's native memory tools) and says once why.
 */
import type { CaptureEvent } from '../../shared/capture-event.js';
import { createPluginRuntime, withinBudget, type PluginRuntime } from '../shared/api.js';
import { apiKnown, provenText, type HostApiSpec } from './api-spec.js';
import * as map from './events.js';
import type { ExtensionApiLike, ExtensionContextLike } from './host-api.js';
import { runningHostPackage, type HostPackage } from './host-package.js';

interface ExtensionProfile {
  spec: HostApiSpec;
  /** Pi has no MCP: the extension registers the memory tools itself. */
  nativeTools: boolean;
}

/** A capture handler waits at most this long for the worker (an event not yet acknowledged is spooled at exit). */
const CAPTURE_WAIT_MS = 3_000;
/** A memory tool call (it may have to start the worker). */
const TOOL_WAIT_MS = 15_000;

type Ev = Record<string, unknown>;

interface ApiDecision {
  capture: boolean;
  /** Loaded by the other host of the family: that host's own claude-mem extension serves it. */
  inert?: boolean;
  found?: HostPackage;
  why: string;
}

function decideApi(spec: HostApiSpec, env: NodeJS.ProcessEnv = process.env): ApiDecision {
  const found = runningHostPackage(env);
  if (env.CLAUDE_MEM_TRUST_HOST_API === '1') return { capture: true, found, why: 'CLAUDE_MEM_TRUST_HOST_API=1' };
  if (!found) return { capture: false, why: `could not identify the running ${spec.label} release` };
  if (!spec.packages.includes(found.name)) return { capture: false, inert: true, found, why: `loaded by ${found.name} ${found.version}, not ${spec.label}` };
  if (!apiKnown(spec, found.version)) return { capture: false, found, why: `${spec.label} ${found.version} is not a release this extension was proven on (${provenText(spec)})` };
  return { capture: true, found, why: `${spec.label} ${found.version}` };
}

/** Appends memory context to the system prompt in the host's shape (Pi: string, OMP: string[]). */
function withContext(systemPrompt: unknown, context: string): string | string[] | undefined {
  if (!context.trim()) return undefined;
  if (typeof systemPrompt === 'string') return `${systemPrompt}\n\n${context}`;
  if (Array.isArray(systemPrompt) && systemPrompt.every((p) => typeof p === 'string')) return [...systemPrompt, context];
  return undefined;
}

export function createExtension(profile: ExtensionProfile, moduleUrl?: string) {
  return function claudeMemExtension(pi: ExtensionApiLike): void {
    let rt: PluginRuntime | undefined;
    try {
      rt = createPluginRuntime({ host: profile.spec.host, moduleUrl });
      setup(pi, profile, rt);
    } catch (err) {
      rt?.log.problem(`extension setup failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}

type On = (event: string, ms: number, fn: (e: Ev, ctx: ExtensionContextLike) => Promise<unknown> | unknown) => void;

const key = (s: map.SessionRef) => ({ cwd: s.cwd, sessionId: s.sessionId });
const at = () => new Date().toISOString();

/** Said once, where the user sees it: a notification in the TUI, one stderr line otherwise. */
function captureOffNotice(api: ApiDecision): (ctx: ExtensionContextLike | undefined) => void {
  let warned = false;
  return (ctx) => {
    if (api.capture || warned) return;
    warned = true;
    const line = `claude-mem: capture is off (${api.why}); memory recall still works. Update claude-mem to capture this release.`;
    try {
      if (ctx?.hasUI && ctx.ui?.notify) ctx.ui.notify(line, 'warning');
      else process.stderr.write(`${line}\n`);
    } catch {
      // Nowhere to say it: the log has it.
    }
  };
}

/** Recall runs on every release: the session's context is prefetched and added before each turn. */
function onRecallEvents(on: On, host: HostApiSpec['host'], api: ApiDecision, rt: PluginRuntime) {
  const announce = captureOffNotice(api);
  on('session_start', CAPTURE_WAIT_MS, async (e, ctx) => {
    announce(ctx);
    const s = map.sessionRef(ctx);
    if (!s) return;
    rt.prefetchContext(key(s)); // fetched while the user types
    if (api.capture && e.reason !== 'reload') await rt.capture([map.sessionStart(host, s, e, at())]);
  });

  on('before_agent_start', Math.max(CAPTURE_WAIT_MS, rt.contextBudgetMs() + 500), async (e, ctx) => {
    const s = map.sessionRef(ctx);
    if (!s) return undefined;
    const stored = api.capture ? rt.capture([map.prompt(host, s, e, at())]) : Promise.resolve();
    const context = await rt.context(key(s));
    await stored;
    const systemPrompt = withContext(e.systemPrompt, context);
    return systemPrompt === undefined ? undefined : { systemPrompt };
  });
}

/** Only on a release whose extension API is known: the other events' shapes are trusted there. */
function onCaptureEvents(on: On, host: HostApiSpec['host'], rt: PluginRuntime) {
  const capture = (fn: (s: map.SessionRef, e: Ev) => CaptureEvent | undefined) =>
    async (e: Ev, ctx: ExtensionContextLike) => {
      const s = map.sessionRef(ctx);
      if (s) await rt.capture([fn(s, e)]);
    };
  on('tool_execution_start', CAPTURE_WAIT_MS, capture((s, e) => map.toolUse(host, s, e, at())));
  // Returns nothing: a tool_result handler's answer would patch the tool's result.
  on('tool_result', CAPTURE_WAIT_MS, capture((s, e) => map.toolResult(host, s, e, at())));
  on('agent_end', CAPTURE_WAIT_MS, capture((s, e) => map.assistantMessage(host, s, e, at())));
  on('session_compact', CAPTURE_WAIT_MS, async (e, ctx) => {
    const s = map.sessionRef(ctx);
    if (!s) return;
    rt.forgetContext(s.sessionId);
    await rt.capture([map.compact(host, s, e, at())]);
  });
  on('session_shutdown', CAPTURE_WAIT_MS, async (e, ctx) => {
    const s = map.sessionRef(ctx);
    if (s && e.reason !== 'reload') await rt.capture([map.sessionEnd(host, s, e, at())]);
    await rt.flush();
  });
}

function registerNativeTools(pi: ExtensionApiLike, host: HostApiSpec['host'], rt: PluginRuntime) {
  const log = rt.log;
  for (const spec of rt.recall.tools) {
    pi.registerTool!({
      name: spec.name,
      label: spec.title,
      description: spec.description,
      parameters: spec.parameters,
      async execute(_id, params, _signal, _onUpdate, ctx) {
        const s = map.sessionRef(ctx);
        const cwd = s?.cwd ?? (typeof ctx?.cwd === 'string' ? ctx.cwd : process.cwd());
        const late = `claude-mem did not answer ${spec.name} within ${TOOL_WAIT_MS / 1000} s; run "claude-mem doctor".`;
        const text = await withinBudget(log, `${host} ${spec.name}`, TOOL_WAIT_MS, late, () => rt.recall.run(spec.name, params, { cwd, sessionId: s?.sessionId }));
        return { content: [{ type: 'text', text }], details: {} };
      },
    });
  }
}

function setup(pi: ExtensionApiLike, profile: ExtensionProfile, rt: PluginRuntime): void {
  const { host } = profile.spec;
  const api = decideApi(profile.spec);
  const log = rt.log;
  if (api.inert) {
    log.problem(`${profile.spec.label} extension inactive: ${api.why} (that host's own claude-mem extension captures)`);
    return;
  }
  if (!api.capture) log.problem(`capture off: ${api.why}; recall only`);

  // Every handler keeps to its budget: a slow worker never holds the host.
  const on: On = (event, ms, fn) =>
    pi.on(event, (e, ctx) => withinBudget<unknown>(log, `${host} ${event}`, ms, undefined, () => fn(e ?? {}, ctx)));
  onRecallEvents(on, host, api, rt);
  if (api.capture) onCaptureEvents(on, host, rt);
  if (profile.nativeTools && typeof pi.registerTool === 'function') registerNativeTools(pi, host, rt);
}
