/** Builders for the change shapes several hosts share. */
import type { FileChange, JsonArrayUpsertChange, JsonSetChange } from '../../engine/index.js';
import type { HostId } from '../../../shared/hosts.js';
import { hookCommand, hookMatcher, MCP_KEY, mcpServer, type Runtime } from './command.js';

export interface HookSpec {
  event: string;
  /** In the host's own unit (seconds for most, milliseconds for Gemini). */
  timeout: number;
}

interface ClaudeLayout {
  /** Group matcher; omitted means every tool / source. */
  matcher?: string;
  /** Extra handler fields placed after `type` (e.g. Gemini's `name`). */
  handlerExtra?: Record<string, unknown>;
}

/** One Claude-layout group holding our single handler: `{matcher?, hooks:[{type, command, timeout}]}`. */
function claudeGroup(rt: Runtime, host: HostId, spec: HookSpec, layout: ClaudeLayout = {}): Record<string, unknown> {
  const handler = { type: 'command', ...layout.handlerExtra, command: hookCommand(rt, host, spec.event), timeout: spec.timeout };
  return { ...(layout.matcher !== undefined && { matcher: layout.matcher }), hooks: [handler] };
}

/**
 * Our group appended to (or updated in) `hooks.<Event>` of a settings-style file. The user's
 * groups in the same array are never replaced or reordered, and a hook the user adds to our group
 * stays theirs (`inner`: only our handler in it is ours).
 */
export function claudeHookUpserts(
  file: string, host: HostId, rt: Runtime, specs: readonly HookSpec[], layout: ClaudeLayout = {},
): JsonArrayUpsertChange[] {
  return specs.map((spec) => ({
    kind: 'json-array-upsert',
    file,
    host,
    path: ['hooks', spec.event],
    match: hookMatcher(rt, host, spec.event),
    entry: claudeGroup(rt, host, spec, layout),
    inner: ['hooks'],
  }));
}

/** A whole hooks file of ours in the Claude layout: `{ "hooks": { "<Event>": [group] } }`. */
export function claudeHooksDocument(rt: Runtime, host: HostId, specs: readonly HookSpec[], layout: ClaudeLayout = {}) {
  return { hooks: Object.fromEntries(specs.map((s) => [s.event, [claudeGroup(rt, host, s, layout)]])) };
}

/** Pretty JSON with a final newline: how we write files that are wholly ours. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function fileChange(file: string, host: HostId, value: unknown): FileChange {
  return { kind: 'file', file, host, content: jsonText(value) };
}

/** `mcpServers.claude-mem` in a JSON/JSONC MCP config; `extra` adds host-specific fields. */
export function mcpServersChange(file: string, host: HostId, rt: Runtime, extra: Record<string, unknown> = {}, before: Record<string, unknown> = {}): JsonSetChange {
  return { kind: 'json-set', file, host, path: ['mcpServers', MCP_KEY], value: { ...before, ...mcpServer(rt), ...extra } };
}
