// Builds capture events for observer tests: by hand, or from the real host payloads in the fixtures.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import type { HostId } from '../../src/shared/hosts.js';
import { normalizeToolName } from '../../src/shared/tool-names.js';
import { FIXTURES } from '../helpers/temp.js';

export const CWD = '/home/dev/projects/demo';

export function toolEvent(toolName: string, toolInput: unknown, toolResponse?: unknown, over: Partial<CaptureEvent> = {}): CaptureEvent {
  return {
    host: 'claude-code', source: 'hook', kind: toolResponse === undefined ? 'tool_use' : 'tool_result',
    sessionId: 's1', cwd: CWD, at: '2026-11-30T10:00:00.000Z', toolName, toolUseId: 'toolu_1', toolInput, toolResponse, ...over,
  };
}

export function fixtureJson(rel: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(FIXTURES, rel), 'utf8')) as Record<string, unknown>;
}

/** The JSON lines of a fixture log whose `pick` returns something. */
export function fixtureLines(rel: string): Array<Record<string, unknown>> {
  return readFileSync(join(FIXTURES, rel), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A hook payload mapped the way the adapters map it: tool name, input and response fields by dialect. */
export function fromHookFixture(host: HostId, rel: string): CaptureEvent {
  const p = fixtureJson(rel);
  const raw = String(p.tool_name ?? p.toolName ?? '');
  return {
    host, source: 'hook', kind: 'tool_result', sessionId: String(p.session_id ?? p.sessionId), cwd: String(p.cwd),
    at: '2026-11-30T10:00:00.000Z', toolName: normalizeToolName(host, raw), rawToolName: raw,
    toolUseId: typeof p.tool_use_id === 'string' ? p.tool_use_id : undefined,
    toolInput: p.tool_input ?? p.toolArgs,
    toolResponse: p.tool_response ?? p.tool_result ?? p.toolResult,
  };
}
