/**
 * A Cordis context and agents shaped like DeepSeek Harness's, for the recall plugin's tests.
 *
 * The current agent API (deepseek-ai/deepseek-harness, packages/core/agent/src/runtime-types.ts
 * and dispatch.ts): `agent/session-start` listeners get one payload object; the dispatcher passes
 * the emitter's fields with the agent fused in (`{...payload, agent}`), calls every listener, and
 * contains a listener's throw or rejection (logged, never passed on). `agent.inject(message)` takes
 * one identified UserMessage `{ id, role: 'user', content, source }` — the shape
 * `createUserMessage` of @deepseek-ai/dsh-llm returns — which the session log must accept as
 * JSON; anything else is refused with a TypeError here, as the host's append would refuse it.
 *
 * The earlier generation: listeners get `(agent, source)`, and `inject(content, { source })`.
 */
type Listener = (...args: unknown[]) => unknown;
export type TextBlock = { type: string; text: string };
export interface UserMessage { id: string; role: 'user'; content: TextBlock[]; source: { kind: string; plugin: string } }

export function cordisApp() {
  const listeners = new Map<string, Listener[]>();
  const warnings: string[] = [];
  const ctx = {
    on(event: string, fn: Listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), fn]);
      return () => undefined;
    },
    logger: { warn: (m: string) => warnings.push(m) },
  };
  const contained = (event: string, call: () => unknown) => {
    try {
      void Promise.resolve(call()).catch((e: unknown) => warnings.push(`agent event "${event}" listener rejected: ${String(e)}`));
    } catch (e) {
      warnings.push(`agent event "${event}" listener threw: ${String(e)}`);
    }
  };
  /** The current dispatcher: one fused payload per listener. */
  const emitAgentEvent = (event: string, agent: unknown, payload: Record<string, unknown>) => {
    for (const fn of listeners.get(event) ?? []) contained(event, () => fn({ ...payload, agent }));
  };
  /** The earlier dispatcher: positional arguments. */
  const emitPositional = (event: string, ...args: unknown[]) => {
    for (const fn of listeners.get(event) ?? []) contained(event, () => fn(...args));
  };
  return { ctx, listeners, warnings, emitAgentEvent, emitPositional };
}

const isTextBlocks = (v: unknown): v is TextBlock[] => Array.isArray(v) && v.length > 0
  && v.every((b) => !!b && typeof b === 'object' && (b as TextBlock).type === 'text' && typeof (b as TextBlock).text === 'string');
const isPluginSource = (v: unknown): boolean => !!v && typeof v === 'object'
  && (v as { kind?: unknown }).kind === 'plugin' && typeof (v as { plugin?: unknown }).plugin === 'string' && (v as { plugin: string }).plugin.length > 0;

/** Refuses anything but one JSON-clean UserMessage, as the current harness does. */
export function checkUserMessage(args: unknown[]): UserMessage {
  if (args.length !== 1) throw new TypeError(`inject takes one UserMessage, got ${args.length} arguments`);
  const m = args[0] as Record<string, unknown> | null;
  if (!m || typeof m !== 'object' || Array.isArray(m)) throw new TypeError('inject: the message is not an object');
  const keys = Object.keys(m).sort().join(',');
  if (keys !== 'content,id,role,source') throw new TypeError(`inject: UserMessage fields are id, role, content, source (got ${keys})`);
  if (typeof m.id !== 'string' || m.id.length === 0) throw new TypeError('inject: the message has no id');
  if (m.role !== 'user') throw new TypeError('inject: role must be user');
  if (!isTextBlocks(m.content)) throw new TypeError('inject: content must be text blocks');
  if (!isPluginSource(m.source)) throw new TypeError('inject: source must name the plugin');
  if (JSON.stringify(JSON.parse(JSON.stringify(m))) !== JSON.stringify(m)) throw new TypeError('inject: not JSON');
  return m as unknown as UserMessage;
}

export function currentAgent(header: Record<string, unknown>) {
  const injected: UserMessage[] = [];
  return { injected, session: { header }, inject: (...args: unknown[]) => { injected.push(checkUserMessage(args)); } };
}

export function earlierAgent(header: Record<string, unknown>) {
  const injected: { content: TextBlock[]; source: unknown }[] = [];
  return {
    injected,
    session: { header },
    inject: (content: unknown, opts: { source?: unknown } | undefined) => {
      if (!isTextBlocks(content) || !isPluginSource(opts?.source)) throw new TypeError('inject(content, { source }) expected');
      injected.push({ content, source: opts!.source });
    },
  };
}
