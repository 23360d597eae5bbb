/**
 * The built OMP extension (dist/plugins/omp/index.js) against a harness of OMP 18.3's
 * ExtensionAPI as its published types declare it (src/extensibility/extensions/types.ts,
 * shared-events.ts): no captured OMP run exists, so Pi 0.73.1's fixture callbacks are replayed
 * in OMP's shapes (session_start/session_shutdown without a reason, before_agent_start's
 * systemPrompt as string[], `ctx.agent` naming the main agent or a subagent).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pluginTestLifecycle, startFakeWorker, type FakeWorker } from './opencode-harness.js';
import { createPiHost, ensureBundles, importModule, installCopy, piRecords, runAsHost, type PiHost, type PiRecord } from './pi-harness.js';

const SESSION = '01a22c17-fd4e-740e-9726-113d76eab436';
const CWD = '/home/dev/projects/demo';

/** Pi's fixture run, in the shapes OMP 18.3 declares. */
function ompRecords(): PiRecord[] {
  return piRecords().filter((r) => r.payload).map((r) => {
    const p = { ...r.payload! };
    if (r.event === 'session_start' || r.event === 'session_shutdown') delete p.reason;
    if (r.event === 'before_agent_start') {
      p.systemPrompt = [p.systemPrompt as string];
      delete p.systemPromptOptions;
    }
    return { ...r, payload: p };
  });
}

/** OMP's ExtensionAPI surface this extension may touch. */
const OMP_KEYS = ['on', 'registerTool', 'registerCommand', 'registerShortcut', 'registerFlag', 'sendMessage', 'sendUserMessage', 'appendEntry', 'exec', 'events'];

const t = pluginTestLifecycle(() => ensureBundles(['omp']), ['CLAUDE_MEM_DATA_DIR', 'CLAUDE_MEM_TRUST_HOST_API']);
afterEach(() => vi.restoreAllMocks());

async function load(version = '18.3.4', pkg = '@oh-my-pi/pi-coding-agent'): Promise<{ host: PiHost; w: FakeWorker }> {
  t.restore = runAsHost(pkg, version);
  const p = installCopy('omp');
  const w = (t.worker = await startFakeWorker(p.dataDir));
  const mod = await importModule<{ default: (pi: Record<string, unknown>) => void }>(p.file);
  const host = createPiHost(OMP_KEYS);
  mod.default(host.api);
  return { host, w };
}

describe('OMP extension, OMP 18.3 shapes', () => {
  it('captures the same run as Pi: session start, prompt, the bash call, the answer, the end', async () => {
    const { host, w } = await load();
    await host.replay(ompRecords(), (c) => host.ctx(c, { kind: 'main', id: 'Main' }));
    expect(host.errors).toEqual([]);
    expect(w.events.map((e) => e.kind)).toEqual(['session_start', 'prompt', 'tool_use', 'tool_result', 'assistant_message', 'session_end']);
    for (const e of w.events) expect(e).toMatchObject({ host: 'omp', source: 'plugin', sessionId: SESSION, cwd: CWD });
    expect(w.events[0].reason).toBeUndefined();
    expect(w.events[5].reason).toBe('shutdown');
    expect(w.events[3]).toMatchObject({ toolUseId: 'call_5lyu0qmkqd', toolName: 'Bash', toolInput: { command: 'echo hello-from-mock' } });
    expect(w.events.some((e) => e.agentId)).toBe(false);
  });

  it('appends the context as one more system prompt part (OMP takes string[])', async () => {
    const { host, w } = await load();
    const { systemPrompts } = await host.replay(ompRecords());
    const original = ompRecords().find((r) => r.event === 'before_agent_start')!.payload!.systemPrompt as string[];
    expect(systemPrompts).toEqual([[...original, w.contextText]]);
  });

  it('registers no native tools: OMP has MCP, and install adds the claude-mem server to its mcp.json', async () => {
    const { host } = await load();
    expect(host.tools).toEqual([]);
  });

  it('marks a subagent session with its agent id', async () => {
    const { host, w } = await load();
    const ctx = host.ctx({ cwd: CWD, hasUI: false, sessionId: 'sub-session-1' }, { kind: 'sub', id: '0-Explore' });
    await host.emit('tool_execution_start', { type: 'tool_execution_start', toolCallId: 'c1', toolName: 'read', args: { path: 'README.md' } }, ctx);
    expect(w.events[0]).toMatchObject({ sessionId: 'sub-session-1', agentId: '0-Explore', isSubagent: true, toolName: 'Read' });
  });

  it('on an OMP release it does not know: recall only, one clear line', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { host, w } = await load('19.0.0');
    const { systemPrompts } = await host.replay(ompRecords());
    expect(w.events).toEqual([]);
    expect((systemPrompts[0] as string[]).at(-1)).toBe(w.contextText);
    expect(write.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('claude-mem'))).toEqual([
      expect.stringContaining('capture is off (OMP 19.0.0 is not a release this extension was proven on (18.2.3; types checked: 18.3.4))'),
    ]);
  });

  it('a compiled OMP (no package.json to read) counts as unknown: recall only', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { host, w } = await load();
    t.restore?.();
    t.restore = undefined;
    const saved = process.argv[1];
    process.argv[1] = '/$bunfs/root/omp';
    try {
      const p = installCopy('omp');
      const mod = await importModule<{ default: (pi: Record<string, unknown>) => void }>(p.file);
      const h2 = createPiHost(OMP_KEYS);
      mod.default(h2.api);
      await h2.replay(ompRecords());
      expect(w.events).toEqual([]);
      expect(write.mock.calls.map((c) => String(c[0])).join('')).toContain('could not identify the running OMP release');
    } finally {
      process.argv[1] = saved;
    }
    expect(host.errors).toEqual([]);
  });
});
