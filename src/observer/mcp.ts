/** MCP tool calls (`mcp__server__tool`) → `mcp` observations. */
import type { CaptureEvent } from '../shared/capture-event.js';
import { buildDraft, didFail } from './draft.js';
import { readOutput } from './output.js';
import type { ObservationDraft } from './types.js';
import { asRecord, clip, compactJson, excerpt } from './text.js';

/** `mcp__github__create_issue` → { server: 'github', tool: 'create_issue' }. */
function splitMcpName(name: string): { server: string; tool: string } {
  const rest = name.replace(/^mcp__/, '');
  const i = rest.indexOf('__');
  return i < 0 ? { server: rest, tool: '' } : { server: rest.slice(0, i), tool: rest.slice(i + 2) };
}

/** `key=value, key=value` for the title, values clipped. */
function argsSummary(input: unknown, max: number): string {
  const o = asRecord(input);
  if (!o) return typeof input === 'string' ? clip(input, max) : '';
  const parts = Object.entries(o)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .slice(0, 4)
    .map(([k, v]) => `${k}=${clip(typeof v === 'string' ? v : compactJson(v, 40), 40)}`);
  return clip(parts.join(', '), max);
}

export function observeMcp(e: CaptureEvent): ObservationDraft {
  const name = e.toolName ?? '';
  const { server, tool } = splitMcpName(name);
  const out = readOutput(e.toolResponse);
  const failed = didFail(e, undefined, out.failed);
  const args = argsSummary(e.toolInput, 60);
  return buildDraft(e, {
    type: 'mcp',
    title: `${failed ? 'Failed' : 'Called'} ${server}${tool ? `.${tool}` : ''}${args ? ` (${args})` : ''}`,
    subtitle: `MCP server ${server}`,
    lines: [
      `MCP ${server} \u2192 ${tool || name}`,
      e.toolInput !== undefined && `Arguments: ${compactJson(e.toolInput, 400)}`,
      out.error && `Error: ${clip(out.error, 300)}`,
      out.text && `Result:\n${excerpt(out.text, 500)}`,
    ],
    facts: [`server: ${server}`, tool && `tool: ${tool}`, failed && 'failed'],
    concepts: ['mcp', server, ...(failed ? ['error'] : [])],
  });
}
