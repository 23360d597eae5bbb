// The real payloads every host sent for the same exchange (one `echo hello-from-mock`) give the same observation.
import { describe, expect, it } from 'vitest';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import { normalizeToolName } from '../../src/shared/tool-names.js';
import { observe } from '../../src/observer/index.js';
import { CWD, fixtureLines, fromHookFixture } from './events.js';

function expectEcho(e: CaptureEvent, exitCode?: number): void {
  const d = observe(e)!;
  expect(d).not.toBeNull();
  expect(d.type).toBe('command');
  expect(d.title).toBe('Ran `echo hello-from-mock`');
  expect(d.narrative).toContain('$ echo hello-from-mock');
  expect(d.narrative).toMatch(/Output:\nhello-from-mock$/);
  expect(d.narrative).not.toMatch(/shellId|PGID|untrusted_context|Chunk ID/);
  expect(d.concepts).not.toContain('error');
  if (exitCode !== undefined) expect(d.facts).toContain(`exit code: ${exitCode}`);
}

describe('observe: hook payloads from the fixtures', () => {
  it('Claude Code PostToolUse (Bash, {stdout, stderr})', () => {
    const e = fromHookFixture('claude-code', 'claude-code/hooks/005-PostToolUse.json');
    expectEcho(e);
    expect(observe(e)!.toolUseId).toBe('toolu_gmwiv4i6td');
    expect(observe(e)!.toolName).toBe('Bash');
  });

  it('Codex PostToolUse (plain string response)', () => {
    expectEcho(fromHookFixture('codex', 'codex/hooks/004-PostToolUse.json'));
  });

  it('Codex PreToolUse (input only)', () => {
    const e = { ...fromHookFixture('codex', 'codex/hooks/003-PreToolUse.json'), kind: 'tool_use' as const };
    const d = observe(e)!;
    expect(d.title).toBe('Ran `echo hello-from-mock`');
    expect(d.narrative).not.toContain('Output:');
  });

  it('Gemini AfterTool (run_shell_command, {llmContent, returnDisplay})', () => {
    const e = fromHookFixture('gemini', 'gemini-cli/hooks/008-AfterTool.json');
    expect(e.toolName).toBe('Bash');
    expectEcho(e);
  });

  it('Copilot CLI camelCase postToolUse ({resultType, textResultForLlm})', () => {
    expectEcho(fromHookFixture('copilot', 'copilot-cli/hooks-camel/010-postToolUse.json'), 0);
    expect(observe(fromHookFixture('copilot', 'copilot-cli/hooks-camel/010-postToolUse.json'))!.subtitle).toBe('Print a greeting');
  });

  it('Copilot CLI PascalCase PostToolUse ({result_type, text_result_for_llm})', () => {
    expectEcho(fromHookFixture('copilot', 'copilot-cli/hooks-pascal/009-PostToolUse.json'), 0);
  });
});

describe('observe: plugin and transcript shapes from the fixtures', () => {
  const base = { source: 'plugin' as const, kind: 'tool_result' as const, sessionId: 's', cwd: CWD, at: '2026-11-30T10:00:00.000Z' };

  it('OpenCode tool.execute.after ({output, metadata.exit})', () => {
    const line = fixtureLines('opencode/events/plugin-events.jsonl').find((l) => l.hook === 'tool.execute.after')!;
    const input = line.input as { tool: string; args: unknown };
    const e: CaptureEvent = { ...base, host: 'opencode', toolName: normalizeToolName('opencode', input.tool), toolInput: input.args, toolResponse: line.output };
    expectEcho(e, 0);
  });

  it('Pi tool_result (content blocks)', () => {
    const line = fixtureLines('pi/events/extension-events.jsonl').find((l) => l.event === 'tool_result')!;
    const p = line.payload as { toolName: string; input: unknown; content: unknown; isError: boolean };
    const e: CaptureEvent = { ...base, host: 'pi', toolName: normalizeToolName('pi', p.toolName), toolInput: p.input,
      toolResponse: { content: p.content, isError: p.isError } };
    expectEcho(e);
  });

  it('OpenClaw after_tool_call ({content, details.exitCode, durationMs})', () => {
    const line = fixtureLines('openclaw/events/plugin-hooks.jsonl').find((l) => l.hook === 'after_tool_call')!;
    const ev = line.event as { toolName: string; params: unknown; result: unknown };
    // `exec` as the plugin reports it: the observer maps names the shared table does not know.
    const e: CaptureEvent = { ...base, host: 'openclaw', toolName: ev.toolName, toolInput: ev.params, toolResponse: ev.result };
    expectEcho(e, 0);
    expect(observe(e)!.toolName).toBe('Bash');
    expect(observe(e)!.facts).toContain('duration: 1.3 s');
  });

  it('Codex rollout function_call_output (unified exec header) with exec_command arguments', () => {
    const lines = fixtureLines('codex/sessions/rollout-2026-11-30T10-54-14-01a22c17-4ed4-7561-9d59-b934c4f76f3a.jsonl');
    const call = lines.find((l) => (l.payload as { type?: string }).type === 'function_call')!.payload as { name: string; arguments: string };
    const output = lines.find((l) => (l.payload as { type?: string }).type === 'function_call_output')!.payload as { output: string };
    const e: CaptureEvent = { ...base, source: 'transcript', host: 'codex', toolName: normalizeToolName('codex', call.name),
      toolInput: call.arguments, toolResponse: output.output };
    expectEcho(e, 0);
  });

  it('Codex exec --json command_execution (argv string, aggregated_output, exit_code)', () => {
    const line = fixtureLines('codex/events/exec-json.jsonl').find(
      (l) => l.type === 'item.completed' && (l.item as { type: string }).type === 'command_execution',
    )!;
    const item = line.item as Record<string, unknown>;
    const e: CaptureEvent = { ...base, host: 'codex', toolName: 'Bash', toolInput: { command: item.command }, toolResponse: item };
    expectEcho(e, 0);
  });
});
