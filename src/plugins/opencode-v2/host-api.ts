/**
 * The part of OpenCode's V2 plugin context (`@opencode/plugin`, `Plugin.define({ id, setup(ctx) })`)
 * this plugin uses, typed structurally: nothing is imported from the host, so the bundle loads
 * from any folder. Shapes as the V2 docs and the plugin package's Promise API describe them
 * (opencode.ai/v2/docs/build/plugins, packages/plugin/src/promise/{tool,session,event}.ts).
 *
 * Confirmed from OpenCode's own docs and plugin package: the default export `{id, setup(ctx)}`;
 * `ctx.tool.hook("execute.before"|"execute.after")` with `{tool, sessionID, agent, messageID, id,
 * input}` (+ `status`, `result` | `error` after); `ctx.tool.transform` with `editor.add({name,
 * description, input, execute})` where `input` may be JSON Schema and the result is `{content}`;
 * `ctx.session.hook("prompt"|"context"|"compaction")`, `context.system` being `{type:'text',text}[]`;
 * local plugins found in `~/.config/opencode/plugins/` (directories), config key `plugins`, MCP at
 * `mcp.servers.<name>`. Inferred from third-party V2 plugins (not run here, no 2.x build was
 * available): the event names `session.created | idle | deleted | text.delta` with `{sessionID}` in
 * `data`, the shell tool's id `shell`, and a directory plugin resolving to its `index.js`.
 */

interface Registration {
  dispose?: () => Promise<void>;
}

type HookFn<E> = (event: E) => Promise<void> | void;

/** `ctx.tool.hook("execute.before" | "execute.after", fn)`. */
export interface ToolCallEvent {
  tool: string;
  sessionID: string;
  agent?: string;
  messageID?: string;
  /** The call id. */
  id: string;
  input: unknown;
  status?: 'completed' | 'error';
  result?: { content?: string | ReadonlyArray<{ type: string; text?: string }>; output?: unknown; metadata?: Record<string, unknown> };
  error?: { message?: string } | unknown;
}

/** `ctx.tool.transform(editor => editor.add(tool))`: input may be plain JSON Schema. */
interface ToolInfoLike {
  name: string;
  description: string;
  input: Record<string, unknown>;
  execute(input: unknown, context: { sessionID?: string; agent?: string; signal?: AbortSignal }): Promise<{ content?: string; metadata?: Record<string, unknown> }>;
}

export interface ToolEditorLike {
  add(tool: ToolInfoLike): void;
}

/** `ctx.session.hook("prompt")`: the user's input at admission, with OpenCode's message id. */
export interface SessionPromptEvent {
  sessionID: string;
  messageID?: string;
  prompt?: { text?: string };
}

/** `ctx.session.hook("context")`: one model request of the agent loop; `system` is mutable. */
export interface SessionContextEvent {
  sessionID: string;
  agent?: string;
  model?: { id?: string; providerID?: string };
  system: Array<{ type: 'text'; text: string } | { type: string; text?: string }>;
}

/** One event of `ctx.event.subscribe()`: `{ id, type, data, location? }`. */
export interface BusEvent {
  type: string;
  data?: Record<string, any>;
  properties?: Record<string, any>;
  location?: { directory?: string };
}

export interface PluginContextLike {
  location?: { directory?: string; project?: { id?: string } };
  options?: Record<string, unknown>;
  tool?: {
    hook?(name: 'execute.before' | 'execute.after', fn: HookFn<ToolCallEvent>): Promise<Registration>;
    transform?(fn: (editor: ToolEditorLike) => void): Promise<Registration>;
  };
  session?: {
    hook?(name: 'prompt' | 'context' | 'compaction', fn: HookFn<any>): Promise<Registration>;
  };
  event?: {
    subscribe?(opts?: { signal?: AbortSignal }): AsyncIterable<BusEvent>;
  };
}
