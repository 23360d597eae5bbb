// What each adapter prints: the host's own context format (checked against the outputs that
// reached the model in the captured runs), valid JSON where JSON is expected, never a block.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookHostId } from '../../src/shared/hosts.js';
import { getAdapter, HOOK_DIALECT_HOSTS } from './loaded.js';
import { FIXTURES } from '../helpers/temp.js';

function injected(dir: string, event: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(FIXTURES, dir, `hook-output-${event}.json`), 'utf8')) as Record<string, unknown>;
}

describe('context output matches what reached the model in the captured runs', () => {
  it.each([
    ['claude-code', 'claude-code/context-injection', ['SessionStart', 'UserPromptSubmit', 'PostToolUse']],
    ['codex', 'codex/context-injection', ['SessionStart', 'UserPromptSubmit', 'PostToolUse']],
    ['gemini', 'gemini-cli/context-injection', ['SessionStart', 'BeforeAgent', 'AfterTool']],
    ['copilot', 'copilot-cli/context-injection/camel', ['sessionStart', 'userPromptSubmitted']],
  ] as [HookHostId, string, string[]][])('%s', (host, dir, events) => {
    for (const event of events) {
      expect(JSON.parse(getAdapter(host).formatOutput(event, `CONTEXT-MARKER-${event}`)), event).toEqual(injected(dir, event));
    }
  });

  it('copilot PascalCase hooks: the top-level key (the part that arrived), not hookSpecificOutput', () => {
    for (const event of ['SessionStart', 'UserPromptSubmit']) {
      const { hookSpecificOutput: _ignored, ...arrived } = injected('copilot-cli/context-injection/pascal', event);
      expect(JSON.parse(getAdapter('copilot').formatOutput(event, `CONTEXT-MARKER-${event}.top`)), event).toEqual(arrived);
    }
  });
});

const BLOCKING = (o: Record<string, unknown>): boolean =>
  o.decision === 'block' || o.decision === 'deny' || o.continue === false || o.permission === 'deny' || o.permission === 'ask'
  || 'followup_message' in o || 'permissionDecision' in o
  || (typeof o.hookSpecificOutput === 'object' && o.hookSpecificOutput !== null && 'permissionDecision' in o.hookSpecificOutput);

describe('every adapter answers every event it knows without ever blocking', () => {
  for (const host of HOOK_DIALECT_HOSTS) {
    it(host, () => {
      const adapter = getAdapter(host);
      for (const event of [...adapter.events, 'SomeUnknownEvent']) {
        for (const context of ['', 'remember: tests use vitest', 'quotes " and \\ and \n newlines']) {
          const out = adapter.formatOutput(event, context);
          expect(typeof out).toBe('string');
          if (out === '' || host === 'kimi') continue; // Kimi takes plain text
          const parsed = JSON.parse(out) as Record<string, unknown>;
          expect(BLOCKING(parsed), `${host} ${event} → ${out}`).toBe(false);
        }
      }
    });
  }

  it('events that print context are those that ask for it (PostToolUse/AfterTool only when asked by the runtime)', () => {
    const printsWithoutAsking = new Set(['claude-code PostToolUse', 'codex PostToolUse', 'gemini AfterTool']);
    for (const host of HOOK_DIALECT_HOSTS) {
      const adapter = getAdapter(host);
      for (const event of adapter.events) {
        if (!adapter.formatOutput(event, 'CTX-123').includes('CTX-123')) continue;
        const r = adapter.normalize({ host, event, payload: undefined, rawStdin: '', env: {}, now: '2026-01-01T00:00:00.000Z' });
        expect(r.wantsContext || printsWithoutAsking.has(`${host} ${event}`), `${host} ${event}`).toBe(true);
      }
    }
  });
});
