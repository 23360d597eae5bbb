/**
 * The built Pi extension (dist/plugins/pi/index.js) loaded the way Pi 0.73 loads it (default
 * export called with the ExtensionAPI) and driven by the 39 callbacks Pi 0.73.1 really made
 * (test/fixtures/hosts/pi/events/extension-events.jsonl), against a fake worker: exactly
 * what reaches the worker, what goes to the spool when there is none, the context answer, the
 * native memory tools, and the refusal to capture on an unknown Pi release.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import { readSpool, listSpool } from '../../src/shared/spool.js';
import { pluginTestLifecycle, startFakeWorker, waitUntil, type FakeWorker } from './opencode-harness.js';
import { createPiHost, ensureBundles, importModule, installCopy, piRecords, runAsHost, type PiHost } from './pi-harness.js';

const SESSION = '01a22c17-fd4e-740e-9726-113d76eab436';
const CWD = '/home/dev/projects/demo';
const FILE = '/home/dev/.pi/agent/sessions/--home-dev-projects-demo--/2026-11-30T10-54-59-408Z_01a22c17-fd4e-740e-9726-113d76eab436.jsonl';
const records = piRecords();
const apiKeys = records[0].apiKeys!;

const t = pluginTestLifecycle(() => ensureBundles(['pi']), ['CLAUDE_MEM_DATA_DIR', 'CLAUDE_MEM_CONTEXT_BUDGET_MS', 'CLAUDE_MEM_TRUST_HOST_API']);
afterEach(() => vi.restoreAllMocks());

type Factory = (pi: Record<string, unknown>) => void;

async function load(opts: { version?: string; pkg?: string; worker?: boolean } = {}): Promise<{ host: PiHost; dataDir: string; w?: FakeWorker }> {
  t.restore = runAsHost(opts.pkg ?? '@mariozechner/pi-coding-agent', opts.version ?? '0.73.1');
  const p = installCopy('pi');
  if (opts.worker !== false) t.worker = await startFakeWorker(p.dataDir);
  const mod = await importModule<{ default: Factory }>(p.file);
  const host = createPiHost(apiKeys);
  mod.default(host.api);
  return { host, dataDir: p.dataDir, w: t.worker };
}

const spooled = (dataDir: string): CaptureEvent[] => listSpool(`${dataDir}/spool`).flatMap((f) => readSpool(f.path).events);

describe('Pi extension, fixture callbacks of Pi 0.73.1', () => {
  it('is one default-exported factory, as Pi loads extensions', async () => {
    const p = installCopy('pi');
    const mod = await importModule(p.file);
    expect(Object.keys(mod)).toEqual(['default']);
    expect(typeof mod.default).toBe('function');
  });

  it('stores session start, prompt, the bash call (start and result), the answer and the end, once each, with the host ids', async () => {
    const { host, w } = await load();
    await host.replay(records);
    expect(host.errors).toEqual([]);
    const events = w!.events;
    expect(events.map((e) => e.kind)).toEqual(['session_start', 'prompt', 'tool_use', 'tool_result', 'assistant_message', 'session_end']);
    for (const e of events) {
      expect(e).toMatchObject({ host: 'pi', source: 'plugin', sessionId: SESSION, cwd: CWD, transcriptPath: FILE });
      expect(Date.parse(e.at)).not.toBeNaN();
    }
    const [start, prompt, use, result, answer, end] = events;
    expect(start.reason).toBe('startup');
    // Pi gives no turn id: no promptId is invented (the key is the content hash with the capture time).
    expect(prompt).toMatchObject({ prompt: 'say hello using bash' });
    expect(prompt.promptId).toBeUndefined();
    expect(use).toMatchObject({ toolUseId: 'call_5lyu0qmkqd', toolName: 'Bash', rawToolName: 'bash', toolInput: { command: 'echo hello-from-mock' } });
    expect(result).toMatchObject({
      toolUseId: 'call_5lyu0qmkqd', toolName: 'Bash', toolInput: { command: 'echo hello-from-mock' },
      toolResponse: { content: [{ type: 'text', text: 'hello-from-mock\n' }] },
    });
    expect(result.toolFailed).toBeUndefined();
    expect(answer.message).toBe('All done.');
    expect(end.reason).toBe('quit');
    // Every delivery carried the token.
    expect(w!.calls.filter((c) => c.path === '/api/events').every((c) => c.auth === 'signed')).toBe(true);
  });

  it('adds the memory context to the system prompt at before_agent_start (Pi keeps the prompt string; the context is not stored in the session)', async () => {
    const { host, w } = await load();
    const { systemPrompts } = await host.replay(records);
    const original = records.find((r) => r.event === 'before_agent_start')!.payload!.systemPrompt as string;
    expect(systemPrompts).toEqual([`${original}\n\n${w!.contextText}`]);
    const ctxCall = w!.calls.find((c) => c.path === '/api/context')!;
    expect(Object.fromEntries(ctxCall.query)).toMatchObject({ cwd: CWD, host: 'pi', session: SESSION });
    // Fetched once for the session (at session_start), not per prompt.
    expect(w!.calls.filter((c) => c.path === '/api/context')).toHaveLength(1);
  });

  it('asks for the context within the token budget the host\'s environment gives (CLAUDE_MEM_CONTEXT_TOKENS)', async () => {
    process.env.CLAUDE_MEM_CONTEXT_TOKENS = '400';
    try {
      const { host, w } = await load();
      await host.replay(records);
      const ctxCall = w!.calls.find((c) => c.path === '/api/context')!;
      expect(Object.fromEntries(ctxCall.query)).toMatchObject({ host: 'pi', maxTokens: '400' });
    } finally {
      delete process.env.CLAUDE_MEM_CONTEXT_TOKENS;
    }
  });

  it('registers the five memory tools natively (Pi has no MCP) with JSON Schema parameters, and they answer', async () => {
    const { host, w } = await load();
    expect(host.tools.map((t) => t.name)).toEqual(['mem_search', 'mem_timeline', 'mem_get_observations', 'mem_save', 'mem_context']);
    for (const t of host.tools) expect(t.parameters).toMatchObject({ type: 'object', additionalProperties: false });
    const ctx = host.ctx({ cwd: CWD, hasUI: false, sessionId: SESSION });
    const search = await host.tools[0].execute('call_1', { query: 'hello-from-mock' }, undefined, undefined, ctx);
    expect(search.content[0].text).toContain('#7');
    expect(Object.fromEntries(w!.calls.find((c) => c.path === '/api/search')!.query)).toMatchObject({ q: 'hello-from-mock' });
    const saved = await host.tools[3].execute('call_2', { text: 'Use pnpm, not npm.' }, undefined, undefined, ctx);
    expect(saved.content[0].text).toMatch(/^Saved as #8/);
    expect(w!.calls.find((c) => c.path === '/api/memory')!.body).toMatchObject({ text: 'Use pnpm, not npm.', host: 'pi', cwd: CWD, hostSessionId: SESSION });
    // A bad argument is an answer for the model, not a thrown error.
    const bad = await host.tools[2].execute('call_3', { ids: [] }, undefined, undefined, ctx);
    expect(bad.content[0].text).toMatch(/ids/);
  });

  it('does not store its own memory tool calls as work done', async () => {
    const { host, w } = await load();
    const ctx = host.ctx({ cwd: CWD, hasUI: false, sessionId: SESSION });
    await host.emit('tool_execution_start', { type: 'tool_execution_start', toolCallId: 'call_m', toolName: 'mem_search', args: { query: 'x' } }, ctx);
    await host.emit('tool_result', { type: 'tool_result', toolCallId: 'call_m', toolName: 'mem_search', input: { query: 'x' }, content: [], isError: false }, ctx);
    expect(w!.events).toEqual([]);
  });

  it('with no worker: every event is spooled in the hook format, the host is not held up, and the prompt gets no context', async () => {
    const { host, dataDir } = await load({ worker: false });
    const t0 = Date.now();
    const { systemPrompts } = await host.replay(records);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(host.errors).toEqual([]);
    expect(systemPrompts).toEqual([undefined]);
    const kinds = spooled(dataDir).map((e) => e.kind);
    expect(kinds).toEqual(['session_start', 'prompt', 'tool_use', 'tool_result', 'assistant_message', 'session_end']);
    expect(spooled(dataDir)[1]).toMatchObject({ host: 'pi', sessionId: SESSION, prompt: 'say hello using bash' });
  });

  it('a hung worker: a capture handler returns within its budget and the event is spooled', async () => {
    const { host, w, dataDir } = await load();
    w!.hangEvents = true;
    const ctx = host.ctx({ cwd: CWD, hasUI: false, sessionId: SESSION });
    const t0 = Date.now();
    await host.emit('tool_execution_start', { type: 'tool_execution_start', toolCallId: 'call_h', toolName: 'bash', args: { command: 'ls' } }, ctx);
    expect(Date.now() - t0).toBeLessThan(3_500);
    await waitUntil(() => spooled(dataDir).length === 1, 5_000);
    expect(spooled(dataDir)[0]).toMatchObject({ kind: 'tool_use', toolUseId: 'call_h' });
  });

  it('privacy first: private spans and secrets never reach the worker; a fully private prompt is a private turn', async () => {
    const { host, w } = await load();
    const ctx = host.ctx({ cwd: CWD, hasUI: false, sessionId: SESSION });
    const base = { type: 'before_agent_start', systemPrompt: 'sys', systemPromptOptions: {} };
    await host.emit('before_agent_start', { ...base, prompt: 'deploy with <private>hunter2</private> now' }, ctx);
    await host.emit('before_agent_start', { ...base, prompt: '<private>all of it</private>' }, ctx);
    await host.emit('tool_result', {
      type: 'tool_result', toolCallId: 'call_s', toolName: 'bash', input: { command: 'env' },
      content: [{ type: 'text', text: 'OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz0123456789' }], isError: false,
    }, ctx);
    const text = JSON.stringify(w!.events);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('all of it');
    expect(text).not.toContain('sk-proj-abcdefghijklmnopqrstuvwxyz0123456789');
    expect(w!.events[0].prompt).toBe('deploy with  now');
    expect(w!.events[1]).toMatchObject({ kind: 'prompt', privateTurn: true });
    expect(w!.events[1].prompt).toBeUndefined();
  });

  it('marks failed tool calls, records compaction, and skips the reload restart of the same session', async () => {
    const { host, w } = await load();
    const ctx = host.ctx({ cwd: CWD, hasUI: false, sessionId: SESSION, sessionFile: FILE });
    await host.emit('session_shutdown', { type: 'session_shutdown', reason: 'reload' }, ctx);
    await host.emit('session_start', { type: 'session_start', reason: 'reload' }, ctx);
    await host.emit('tool_result', { type: 'tool_result', toolCallId: 'call_f', toolName: 'bash', input: { command: 'false' }, content: [{ type: 'text', text: 'exit 1' }], isError: true }, ctx);
    await host.emit('session_compact', { type: 'session_compact', compactionEntry: { type: 'compaction', summary: 'We said hello.', firstKeptEntryId: 'a', tokensBefore: 10 }, fromExtension: false }, ctx);
    expect(w!.events.map((e) => e.kind)).toEqual(['tool_result', 'compact']);
    expect(w!.events[0]).toMatchObject({ toolFailed: true, toolName: 'Bash' });
    expect(w!.events[1]).toMatchObject({ reason: 'compaction', message: 'We said hello.' });
  });

  it('never throws into Pi: a broken context or payload does nothing', async () => {
    const { host, w } = await load();
    const broken = { cwd: 'relative/dir', hasUI: false, sessionManager: { getSessionId: () => { throw new Error('boom'); } } } as never;
    for (const r of records) if (r.payload) await host.emit(r.event, r.payload, broken);
    await host.emit('tool_result', null as never, host.ctx({ cwd: CWD, hasUI: false, sessionId: SESSION }));
    expect(host.errors).toEqual([]);
    expect(w!.events).toEqual([]);
  });

  it('on a Pi release it was not proven on: no capture, one clear line, recall (context and tools) still works', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { host, w } = await load({ version: '0.74.0' });
    const { systemPrompts } = await host.replay(records);
    expect(w!.events).toEqual([]);
    expect(systemPrompts[0]).toContain(w!.contextText);
    expect(host.tools).toHaveLength(5);
    const lines = write.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('claude-mem'));
    expect(lines).toEqual([expect.stringContaining('capture is off (Pi 0.74.0 is not a release this extension was proven on (0.73.1))')]);
  });

  it('in the TUI the refusal is a notification, not stderr', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { host } = await load({ version: '1.0.0' });
    await host.emit('session_start', { type: 'session_start', reason: 'startup' }, host.ctx({ cwd: CWD, hasUI: true, sessionId: SESSION }));
    expect(host.notices).toEqual([expect.stringContaining('capture is off')]);
    expect(write.mock.calls.filter((c) => String(c[0]).includes('claude-mem'))).toEqual([]);
  });

  it('stays inactive when OMP loads it (OMP has its own claude-mem extension)', async () => {
    const { host, w } = await load({ pkg: '@oh-my-pi/pi-coding-agent', version: '18.3.4' });
    expect(host.handlers.size).toBe(0);
    expect(host.tools).toEqual([]);
    expect(w!.events).toEqual([]);
  });
});
