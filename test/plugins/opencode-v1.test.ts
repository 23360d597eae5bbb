/**
 * The built OpenCode V1 plugin (dist/plugins/opencode-v1/index.js), loaded the way OpenCode 1.x
 * loads it and driven by the callbacks OpenCode 1.18.33 really made (fixture plugin-events.jsonl),
 * against a fake worker: what reaches the worker, what goes to the spool when there is none, what
 * the model gets as context, and what the recall tools answer.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import { tempDir } from '../helpers/temp.js';
import {
  ensurePluginsBuilt, FIXTURE_CWD, FIXTURE_SESSION, fixtureRecords, installBundle, loadBundle, pluginTestLifecycle, replayV1, spooled, startFakeWorker,
  v1Input, waitUntil, type FakeWorker, type V1Hooks,
} from './opencode-harness.js';

type V1Plugin = (input: Record<string, unknown>) => Promise<V1Hooks>;

const records = fixtureRecords();
// The plugin reads the data directory from claude-mem.json unless CLAUDE_MEM_DATA_DIR says otherwise.
const t = pluginTestLifecycle(ensurePluginsBuilt);

async function pluginWithWorker(): Promise<{ hooks: V1Hooks; w: FakeWorker; dataDir: string }> {
  const p = installBundle('opencode-v1');
  const w = (t.worker = await startFakeWorker(p.dataDir));
  const plugin = await loadBundle<V1Plugin>(p.file);
  return { hooks: await plugin(v1Input(records)), w, dataDir: p.dataDir };
}

const kinds = (events: CaptureEvent[]) => events.map((e) => e.kind);

describe('OpenCode V1 plugin, fixture callbacks of OpenCode 1.18.33', () => {
  it('exports exactly one plugin function, as OpenCode calls every export', async () => {
    const p = installBundle('opencode-v1');
    const mod = (await import(pathToFileURL(p.file).href)) as Record<string, unknown>;
    expect(Object.keys(mod)).toEqual(['default']);
    expect(typeof mod.default).toBe('function');
  });

  it('stores the session start, the prompt with its message id, the tool call with its result, the last text and the end, once each', async () => {
    const { hooks, w } = await pluginWithWorker();
    await replayV1(hooks, records);
    await hooks.dispose();
    expect(kinds(w.events)).toEqual(['session_start', 'prompt', 'tool_use', 'tool_result', 'assistant_message', 'session_end']);
    for (const e of w.events) {
      expect(e).toMatchObject({ host: 'opencode', source: 'plugin', sessionId: FIXTURE_SESSION, cwd: FIXTURE_CWD });
      expect(Date.parse(e.at)).not.toBeNaN();
    }
    const [start, prompt, use, result, text, end] = w.events;
    expect(start.reason).toBe('startup');
    // OpenCode's own user message id; `opencode run` hands the prompt over wrapped in quotes.
    expect(prompt).toMatchObject({ promptId: 'msg_22c17cde8001s4kXE5Yz3qspom', prompt: '"say hello using bash"', model: 'local/mock-model' });
    expect(use).toMatchObject({ toolUseId: 'call_mlfkrvshh9', toolName: 'Bash', rawToolName: 'bash', toolInput: { command: 'echo hello-from-mock' } });
    expect(result).toMatchObject({
      toolUseId: 'call_mlfkrvshh9', toolName: 'Bash', toolInput: { command: 'echo hello-from-mock' },
      toolResponse: { title: 'echo hello-from-mock', output: 'hello-from-mock\n', metadata: { exit: 0 } },
    });
    expect(result.toolFailed).toBeUndefined();
    expect(text).toMatchObject({ kind: 'assistant_message', message: 'All done.' });
    expect(end).toMatchObject({ kind: 'session_end', reason: 'idle' });
    expect(w.calls.filter((c) => c.path === '/api/events').every((c) => c.auth === 'signed')).toBe(true);
  });

  it('injects the context into the agent requests only, fetched once for the session', async () => {
    const { hooks, w } = await pluginWithWorker();
    const { outputs } = await replayV1(hooks, records);
    const transforms = outputs.filter((o) => o.hook === 'experimental.chat.system.transform');
    expect(transforms).toHaveLength(3);
    const [title, tool, answer] = transforms.map((t) => t.output!.system as string[]);
    expect(title.some((s) => s.includes('CONTEXT-FROM-WORKER'))).toBe(false);
    for (const system of [tool, answer]) {
      expect(system.filter((s) => s.includes('CONTEXT-FROM-WORKER'))).toHaveLength(1);
      expect(system[system.length - 1]).toBe(w.contextText);
    }
    const asks = w.calls.filter((c) => c.path === '/api/context');
    expect(asks).toHaveLength(1);
    expect(Object.fromEntries(asks[0].query)).toEqual({ cwd: FIXTURE_CWD, host: 'opencode', session: FIXTURE_SESSION });
  });

  it('answers within the context budget when the worker is slow, and uses the late answer next time', async () => {
    process.env.CLAUDE_MEM_CONTEXT_BUDGET_MS = '150';
    const { hooks, w } = await pluginWithWorker();
    w.contextDelayMs = 600;
    const first = { system: ['You are opencode'] };
    const t0 = performance.now();
    await hooks['experimental.chat.system.transform']({ sessionID: FIXTURE_SESSION, model: {} }, first);
    expect(performance.now() - t0).toBeLessThan(450);
    expect(first.system).toEqual(['You are opencode']);
    await new Promise((r) => setTimeout(r, 700));
    const second = { system: ['You are opencode'] };
    await hooks['experimental.chat.system.transform']({ sessionID: FIXTURE_SESSION, model: {} }, second);
    expect(second.system).toEqual(['You are opencode', w.contextText]);
    expect(w.calls.filter((c) => c.path === '/api/context')).toHaveLength(1);
  });

  it('spools everything when no worker runs, and tries to start one with the recorded node and entry', async () => {
    const marker = join(tempDir('start'), 'started');
    const entry = join(tempDir('entry'), 'bin.js');
    writeFileSync(entry, `require('node:fs').writeFileSync(${JSON.stringify(marker)}, process.argv.slice(2).join(' '));\n`);
    const p = installBundle('opencode-v1', { nodePath: process.execPath, entryPath: entry });
    const hooks = await (await loadBundle<V1Plugin>(p.file))(v1Input(records));
    await replayV1(hooks, records);
    await hooks.dispose();
    expect(kinds(spooled(p.dataDir))).toEqual(['session_start', 'prompt', 'tool_use', 'tool_result', 'assistant_message', 'session_end']);
    expect(spooled(p.dataDir)[1]).toMatchObject({ promptId: 'msg_22c17cde8001s4kXE5Yz3qspom', sessionId: FIXTURE_SESSION });
    await waitUntil(() => existsSync(marker));
    expect(readFileSync(marker, 'utf8')).toBe('start --wait 0');
  });

  it('keeps the host waiting no longer than its budget when the worker hangs, then spools at exit', async () => {
    const p = installBundle('opencode-v1');
    const w = (t.worker = await startFakeWorker(p.dataDir));
    w.hangEvents = true;
    const script = `
      const plugin = (await import(${JSON.stringify(`file://${p.file}`)})).default;
      const hooks = await plugin({ directory: ${JSON.stringify(FIXTURE_CWD)} });
      const t0 = Date.now();
      await hooks['tool.execute.before']({ tool: 'bash', sessionID: ${JSON.stringify(FIXTURE_SESSION)}, callID: 'call_1' }, { args: { command: 'ls' } });
      console.log(Date.now() - t0);
      process.exit(0);`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, CLAUDE_MEM_DATA_DIR: '' }, timeout: 20_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(Number(r.stdout.trim())).toBeLessThan(1_000);
    // The delivery was still in flight when the host exited: the exit handler spooled it.
    expect(spooled(p.dataDir)).toMatchObject([
      { kind: 'session_start', reason: 'resume', sessionId: FIXTURE_SESSION },
      { kind: 'tool_use', toolUseId: 'call_1', toolName: 'Bash', toolInput: { command: 'ls' } },
    ]);
  });

  it('records a failed call from its error part, and leaves its own recall calls out', async () => {
    const { hooks, w } = await pluginWithWorker();
    await hooks.config({ mcp: { github: { type: 'remote' }, 'claude-mem': { type: 'local' } } });
    const sessionID = FIXTURE_SESSION;
    await hooks['tool.execute.before']({ tool: 'read', sessionID, callID: 'c1' }, { args: { filePath: '/home/dev/projects/demo/missing.ts' } });
    await hooks.event({ event: { type: 'message.part.updated', properties: { sessionID, part: { type: 'tool', tool: 'read', callID: 'c1', sessionID, state: { status: 'error', input: { filePath: '/home/dev/projects/demo/missing.ts' }, error: 'File not found' } } } } });
    for (const tool of ['mem_search', 'claude-mem_mem_search']) {
      await hooks['tool.execute.before']({ tool, sessionID, callID: `c-${tool}` }, { args: { query: 'x' } });
      await hooks['tool.execute.after']({ tool, sessionID, callID: `c-${tool}`, args: { query: 'x' } }, { title: '', output: 'hits', metadata: {} });
    }
    await hooks['tool.execute.after']({ tool: 'github_list_issues', sessionID, callID: 'c3', args: {} }, { title: '', output: '[]', metadata: {} });
    await hooks.dispose();
    expect(w.events.map((e) => [e.kind, e.toolName, e.toolUseId])).toEqual([
      ['session_start', undefined, undefined],
      ['tool_use', 'Read', 'c1'],
      ['tool_result', 'Read', 'c1'],
      ['tool_result', 'mcp__github__list_issues', 'c3'],
    ]);
    expect(w.events[2]).toMatchObject({ toolFailed: true, toolResponse: { error: 'File not found' }, filePath: '/home/dev/projects/demo/missing.ts' });
    expect(w.events[0]).toMatchObject({ kind: 'session_start', reason: 'resume' });
  });

  it('applies privacy before anything leaves the plugin', async () => {
    const { hooks, w } = await pluginWithWorker();
    const sessionID = FIXTURE_SESSION;
    await hooks['chat.message']({ sessionID, model: { providerID: 'p', modelID: 'm' } }, {
      message: { id: 'msg_1', sessionID, role: 'user' },
      parts: [{ type: 'text', text: 'deploy with key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789 <private>my password is hunter2</private> now' }, { type: 'text', text: 'file body', synthetic: true }],
    });
    await hooks['chat.message']({ sessionID }, { message: { id: 'msg_2', sessionID }, parts: [{ type: 'text', text: '<private>all of it</private>' }] });
    await hooks.dispose();
    const prompts = w.events.filter((e) => e.kind === 'prompt');
    expect(prompts[0].promptId).toBe('msg_1');
    expect(prompts[0].prompt).not.toContain('hunter2');
    expect(prompts[0].prompt).not.toContain('sk-ant-api03-abcdefghij');
    expect(prompts[0].prompt).not.toContain('file body');
    expect(prompts[1]).toMatchObject({ promptId: 'msg_2', privateTurn: true });
    expect(prompts[1].prompt).toBeUndefined();
  });

  it('never throws into the host, whatever it is handed', async () => {
    const { hooks } = await pluginWithWorker();
    const junk = [undefined, null, 42, 'x', {}, { sessionID: 'not a valid id!' }, { sessionID: FIXTURE_SESSION, callID: {} }];
    for (const name of Object.keys(hooks).filter((k) => typeof hooks[k] === 'function')) {
      for (const a of junk) for (const b of junk) await expect(Promise.resolve(hooks[name](a, b))).resolves.toBeUndefined();
    }
    for (const t of Object.values(hooks.tool) as { execute: (a: unknown, c: unknown) => Promise<string> }[]) {
      for (const a of junk) expect(typeof (await t.execute(a, undefined))).toBe('string');
    }
  });
});

describe('OpenCode V1 plugin, recall tools', () => {
  it('offers the five tools and restores their exact schema in tool.definition', async () => {
    const { hooks } = await pluginWithWorker();
    expect(Object.keys(hooks.tool).sort()).toEqual(['mem_context', 'mem_get_observations', 'mem_save', 'mem_search', 'mem_timeline']);
    // OpenCode marks every plain-JSON-Schema arg required; tool.definition puts back the real list.
    const out = { description: 'x', parameters: {}, jsonSchema: { type: 'object', properties: hooks.tool.mem_search.args, required: Object.keys(hooks.tool.mem_search.args) } };
    await hooks['tool.definition']({ toolID: 'mem_search' }, out);
    expect(out.jsonSchema).toMatchObject({ type: 'object', required: ['query'], additionalProperties: false });
    const other = { jsonSchema: { required: ['a'] } };
    await hooks['tool.definition']({ toolID: 'bash' }, other);
    expect(other.jsonSchema).toEqual({ required: ['a'] });
  });

  it('answers through the worker in the MCP text format', async () => {
    const { hooks, w } = await pluginWithWorker();
    const ctx = { sessionID: FIXTURE_SESSION, directory: FIXTURE_CWD };
    const hits = await hooks.tool.mem_search.execute({ query: 'hello', limit: '5' }, ctx);
    expect(hits).toContain('#7 [command]');
    expect(hits).toContain('Ran `echo hello-from-mock`');
    const search = w.calls.find((c) => c.path === '/api/search')!;
    expect(Object.fromEntries(search.query)).toMatchObject({ q: 'hello', limit: '5', offset: '0' });
    expect(await hooks.tool.mem_get_observations.execute({ ids: [7, 99] }, ctx)).toMatch(/#7 \[command\][\s\S]*Not found: #99/);
    expect(await hooks.tool.mem_timeline.execute({ anchor: 7 }, ctx)).toContain('→ ');
    const saved = await hooks.tool.mem_save.execute({ text: 'Use pnpm, not npm.', project: 'github.com/acme/demo' }, ctx);
    expect(saved).toMatch(/^Saved as #8 in github.com\/acme\/demo/);
    expect(w.calls.find((c) => c.path === '/api/memory')!.body).toMatchObject({ text: 'Use pnpm, not npm.', host: 'opencode', hostSessionId: FIXTURE_SESSION, cwd: FIXTURE_CWD });
    expect(await hooks.tool.mem_context.execute({}, ctx)).toContain('CONTEXT-FROM-WORKER');
    expect(await hooks.tool.mem_get_observations.execute({ ids: 'seven' }, ctx)).toMatch(/"ids"/);
    expect(await hooks.tool.mem_save.execute({ text: '' }, ctx)).toMatch(/"text" is required/);
  });

  it('says plainly when no worker can answer', async () => {
    const p = installBundle('opencode-v1');
    const hooks = await (await loadBundle<V1Plugin>(p.file))(v1Input(records));
    const t0 = Date.now();
    const answer = await hooks.tool.mem_search.execute({ query: 'x' }, { sessionID: FIXTURE_SESSION, directory: FIXTURE_CWD });
    expect(answer).toMatch(/^claude-mem could not answer mem_search: .*worker.*claude-mem doctor/);
    // Nothing can start a worker here (no node/entry recorded): no point waiting for one.
    expect(Date.now() - t0).toBeLessThan(1_000);
  });

  it('uses CLAUDE_MEM_DATA_DIR over the recorded data directory', async () => {
    const p = installBundle('opencode-v1');
    const other = tempDir('env-data');
    const w = (t.worker = await startFakeWorker(other));
    process.env.CLAUDE_MEM_DATA_DIR = other;
    const hooks = await (await loadBundle<V1Plugin>(p.file))(v1Input(records));
    await hooks['chat.message']({ sessionID: FIXTURE_SESSION }, { message: { id: 'msg_9' }, parts: [{ type: 'text', text: 'hi' }] });
    await hooks.dispose();
    expect(w.events.map((e) => e.kind)).toEqual(['session_start', 'prompt']);
  });
});
