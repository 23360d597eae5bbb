/**
 * The part of the Pi / OMP ExtensionAPI this extension uses, as both hosts document it (Pi
 * `docs/extensions.md`, OMP `src/extensibility/extensions/types.ts`). Nothing is imported from
 * the host: the bundle must load from any folder.
 */

/** `ctx.sessionManager`: read-only session state (ids, file, cwd). */
interface SessionManagerLike {
  getSessionId?(): string;
  getSessionFile?(): string | undefined;
  getCwd?(): string;
}

/** The handler context. OMP adds `agent` (main session or subagent). */
export interface ExtensionContextLike {
  cwd?: string;
  hasUI?: boolean;
  ui?: { notify?(message: string, level?: string): void };
  sessionManager?: SessionManagerLike;
  agent?: { kind?: 'main' | 'sub'; id?: string; parentId?: string };
}

type Handler = (event: Record<string, unknown>, ctx: ExtensionContextLike) => unknown;

interface ToolResultLike {
  content: { type: 'text'; text: string }[];
  details?: unknown;
}

interface ToolDefinitionLike {
  name: string;
  label: string;
  description: string;
  promptSnippet?: string;
  /** Plain JSON Schema: Pi validates non-TypeBox schemas as JSON Schema. */
  parameters: Record<string, unknown>;
  execute(toolCallId: string, params: Record<string, unknown>, signal?: AbortSignal, onUpdate?: unknown, ctx?: ExtensionContextLike): Promise<ToolResultLike>;
}

export interface ExtensionApiLike {
  on(event: string, handler: Handler): void;
  registerTool?(tool: ToolDefinitionLike): void;
}
