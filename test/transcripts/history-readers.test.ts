import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyCheckpointKey, historySources, ingestHistoryLog } from '../../src/transcripts/history.js';
import { mergeUpdates } from '../../src/transcripts/readers/grok-updates.js';
import { tempDir } from '../helpers/temp.js';
import { FIXTURE_DIR, rows, testStore } from './helpers.js';
import { HOST_CASES } from './history-hosts.js';

const envOf = (home: string) => ({ HOME: home });
const source = (schema: string) => historySources().find((s) => s.schema === schema)!;

async function importHome(schema: string, home: string) {
  const store = testStore();
  const results = [];
  for (const log of await source(schema).findLogs(envOf(home))) results.push(await ingestHistoryLog({ store, source: source(schema), log }));
  const r = rows(store.dbPath);
  const cwds = new Set(r.events.map((e) => (e.payload as { cwd?: string }).cwd));
  store.close();
  return { results, rows: r, cwds };
}

describe('Grok Build update stream', () => {
  const chunk = (kind: string, text: string, promptId?: string) => JSON.stringify({
    method: 'session/update',
    params: { sessionId: 's1', update: { sessionUpdate: kind, content: { type: 'text', text } }, _meta: promptId ? { promptId } : {} },
  });

  it('joins a run of streamed chunks into one message and gives the user message its turn id', () => {
    const out = mergeUpdates([
      chunk('user_message_chunk', 'say '), chunk('user_message_chunk', 'hello'),
      chunk('agent_message_chunk', 'All ', 't1'), chunk('agent_message_chunk', 'done.', 't1'),
      '{broken', chunk('agent_message_chunk', 'Next turn', 't2'),
    ]);
    expect(out).toHaveLength(4);
    const [user, answer, broken, next] = out as Array<Record<string, any>>;
    expect(user.params.update.content.text).toBe('say hello');
    expect(user.params._meta.promptId).toBe('t1');
    expect(answer.params.update.content.text).toBe('All done.');
    expect(broken).toBe('{broken');
    expect(next.params.update.content.text).toBe('Next turn');
  });
});

describe('Gemini chat recordings', () => {
  const gemini = HOST_CASES.find((c) => c.host === 'gemini')!;

  it('without a project registry, takes the working directory from the session context Gemini wrote', async () => {
    const home = tempDir('home');
    gemini.place(home);
    rmSync(join(home, '.gemini', 'projects.json'));
    const { results, rows: r, cwds } = await importHome('gemini', home);
    expect(results[0]).toMatchObject({ status: 'done', deadLetters: 0 });
    expect(r.prompts.map((p) => p.text)).toEqual([gemini.prompt]);
    expect(cwds).toEqual(new Set([gemini.cwd]));
  });

  it('reads the older one-document format (messages[]) into the same rows', async () => {
    const home = tempDir('home');
    const [file] = gemini.place(home);
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const header = lines[0];
    const messages = lines.filter((l) => typeof l.type === 'string');
    rmSync(file);
    writeFileSync(file.replace(/\.jsonl$/, '.json'), JSON.stringify({ ...header, messages }, null, 2));
    const { results, rows: r } = await importHome('gemini', home);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ status: 'done', deadLetters: 0 });
    expect(r.prompts).toEqual([{ session: gemini.sessionId, nativeId: gemini.promptId, text: gemini.prompt }]);
    expect(r.observations.map((o) => o.toolUseId)).toEqual(gemini.toolUseIds);
  });

  it('a JSON document that does not parse is reported as failed, not stuck', async () => {
    const home = tempDir('home');
    const [file] = gemini.place(home);
    rmSync(file);
    writeFileSync(file.replace(/\.jsonl$/, '.json'), '{"sessionId": "x", "messages": [');
    const { results } = await importHome('gemini', home);
    expect(results).toEqual([expect.objectContaining({ status: 'failed', error: expect.stringMatching(/cannot read/) })]);
  });
});

describe('compressed logs', () => {
  it('a zstd-compressed Codex rollout imports into the same rows as the plain one', async () => {
    const codex = HOST_CASES.find((c) => c.host === 'codex')!;
    const plainHome = tempDir('home');
    const zstHome = tempDir('home');
    codex.place(plainHome);
    const [file] = codex.place(zstHome);
    execFileSync('zstd', ['-q', '--rm', file, '-o', `${file}.zst`]);
    const plain = await importHome('codex', plainHome);
    const zst = await importHome('codex', zstHome);
    expect(zst.results).toEqual([expect.objectContaining({ status: 'done', deadLetters: 0 })]);
    expect(zst.rows.prompts).toEqual(plain.rows.prompts);
    expect(zst.rows.observations).toEqual(plain.rows.observations);
  });

  it('DeepSeek Harness sessions (documented format) are found and read, compressed or not', async () => {
    const home = tempDir('home');
    const dir = join(home, '.dsh', 'sessions', '--home-dev-projects-demo--', 'dsh-sess-1');
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(FIXTURE_DIR, 'dsh/--home-dev-projects-demo--/dsh-sess-1/session.jsonl.zstd'), join(dir, 'session.jsonl.zstd'));
    expect(source('dsh').verified).toBe(false);
    const { results, rows: r } = await importHome('dsh', home);
    expect(results).toEqual([expect.objectContaining({ status: 'done', deadLetters: 0 })]);
    expect(r.prompts.map((p) => [p.nativeId, p.text])).toEqual([['1', 'list the files and read README.md'], ['2', 'list the files and read README.md']]);
  });
});

describe('Claude Code subagents', () => {
  it('reads a subagent file into the parent session, marked with its agent id', async () => {
    const claude = HOST_CASES.find((c) => c.host === 'claude-code')!;
    const home = tempDir('home');
    const [main] = claude.place(home);
    const records = readFileSync(main, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((r) => r.type === 'user' || r.type === 'assistant')
      .map((r) => JSON.stringify({ ...r, isSidechain: true, agentId: 'a5e1f0c',
        uuid: `sub-${String(r.uuid)}`, message: JSON.parse(JSON.stringify(r.message).replaceAll('toolu_gmwiv4i6td', 'toolu_sub1')) }));
    const sub = join(main.replace(/\.jsonl$/, ''), 'subagents', 'agent-a5e1f0c.jsonl');
    mkdirSync(join(sub, '..'), { recursive: true });
    writeFileSync(sub, records.join('\n') + '\n');
    const { results, rows: r } = await importHome('claude-code', home);
    expect(results.map((x) => x.status)).toEqual(['done', 'done']);
    const subEvents = r.events.filter((e) => (e.payload as { agentId?: string }).agentId === 'a5e1f0c');
    expect(subEvents.length).toBeGreaterThan(0);
    expect(subEvents.every((e) => (e.payload as { isSubagent?: boolean; parentSessionId?: string }).isSubagent === true
      && (e.payload as { parentSessionId?: string }).parentSessionId === claude.sessionId)).toBe(true);
    expect(subEvents.some((e) => e.kind === 'session_start')).toBe(false);
    expect(r.observations.filter((o) => o.toolUseId === 'toolu_sub1')).toHaveLength(1);
    expect(r.sessions.find((s) => s.id === claude.sessionId)).toBeDefined();
    // The file's session (what a turn_end after the import names) is the parent, not the file name.
    const store = testStore();
    const subLog = (await source('claude-code').findLogs(envOf(home))).find((l) => l.path === sub)!;
    await ingestHistoryLog({ store, source: source('claude-code'), log: subLog });
    expect(store.getCheckpoint(historyCheckpointKey(subLog))?.context).toMatchObject({ sessionId: claude.sessionId, agentId: 'a5e1f0c' });
    store.close();
    // The subagent's opening message carries the parent's promptId: it is not a second prompt.
    expect(r.prompts).toEqual([{ session: claude.sessionId, nativeId: claude.promptId, text: claude.prompt }]);
  });

  it('a summary record names the session, a compaction summary is kept', async () => {
    const claude = HOST_CASES.find((c) => c.host === 'claude-code')!;
    const home = tempDir('home');
    const [main] = claude.place(home);
    const body = readFileSync(main, 'utf8');
    const compact = { parentUuid: null, isSidechain: false, type: 'user', isCompactSummary: true, uuid: 'c1', timestamp: '2026-11-30T11:00:00.000Z',
      cwd: claude.cwd, sessionId: claude.sessionId, message: { role: 'user', content: 'This session is being continued. Summary: greeted with bash.' } };
    writeFileSync(main, `${JSON.stringify({ type: 'summary', summary: 'Bash greeting', leafUuid: 'x' })}\n${body}${JSON.stringify(compact)}\n`);
    const { rows: r } = await importHome('claude-code', home);
    const start = r.events.find((e) => e.kind === 'session_start');
    expect((start?.payload as { title?: string }).title).toBe('Bash greeting');
    expect(r.events.filter((e) => e.kind === 'observation').map((e) => (e.payload as { message?: string }).message))
      .toEqual(['This session is being continued. Summary: greeted with bash.']);
    expect(r.prompts.map((p) => p.text)).toEqual([claude.prompt]);
  });
});

describe('Roo Code tasks (documented format, hand-made)', () => {
  const env = '<environment_details>\n# VSCode Visible Files\n\n# Current Workspace Directory (/home/dev/projects/demo) Files\nREADME.md\n</environment_details>';
  const messages = [
    { role: 'user', ts: 1796036000000, content: [{ type: 'text', text: '<task>\nsay hello using the shell\n</task>' }, { type: 'text', text: env }] },
    { role: 'assistant', ts: 1796036001000, content: [{ type: 'text', text: 'Running it.' }, { type: 'tool_use', id: 'toolu_r1', name: 'execute_command', input: { command: 'echo hello-from-mock' } }] },
    { role: 'user', ts: 1796036002000, content: [{ type: 'tool_result', tool_use_id: 'toolu_r1', content: [{ type: 'text', text: 'hello-from-mock' }] }, { type: 'text', text: env }] },
    { role: 'assistant', ts: 1796036003000, content: [{ type: 'text', text: 'All done.' }] },
    { role: 'user', ts: 1796036004000, content: [{ type: 'text', text: '<user_message>\nthanks\n</user_message>' }, { type: 'text', text: env }] },
  ];

  it.each([['a message array', messages], ['a version 2 envelope', { version: 2, messages }]])('reads %s into session, prompts, tool result and outcome', async (_n, doc) => {
    const home = tempDir('home');
    const file = join(home, '.config', 'Code', 'User', 'globalStorage', 'rooveterinaryinc.roo-cline', 'tasks', 'task-7f3a', 'api_conversation_history.json');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, JSON.stringify(doc));
    expect(source('roo-code').verified).toBe(false);
    const { results, rows: r, cwds } = await importHome('roo-code', home);
    expect(results).toEqual([expect.objectContaining({ status: 'done', deadLetters: 0 })]);
    expect(r.prompts).toEqual([
      { session: 'task-7f3a', nativeId: null, text: 'say hello using the shell' },
      { session: 'task-7f3a', nativeId: null, text: 'thanks' },
    ]);
    expect(r.observations.map((o) => [o.toolUseId, o.toolName])).toEqual([['toolu_r1', 'Bash']]);
    expect(r.events.filter((e) => e.kind === 'assistant_message').map((e) => (e.payload as { message: string }).message).sort()).toEqual(['All done.', 'Running it.']);
    expect(cwds).toEqual(new Set(['/home/dev/projects/demo']));
  });
});

describe('privacy on import', () => {
  it('<private> spans and secret-shaped strings in an old log never reach the database', async () => {
    const claude = HOST_CASES.find((c) => c.host === 'claude-code')!;
    const home = tempDir('home');
    const [main] = claude.place(home);
    const secret = 'sk-ant-api03-' + 'Q'.repeat(80);
    writeFileSync(main, readFileSync(main, 'utf8')
      .replace('"content": "say hello using bash"', '"content": "say hello using bash <private>my bank pin 4711</private>"')
      .replace('"content":"say hello using bash"', '"content":"say hello using bash <private>my bank pin 4711</private>"')
      .replaceAll('hello-from-mock', `hello-from-mock ANTHROPIC_API_KEY=${secret}`));
    expect(readFileSync(main, 'utf8')).toContain('4711');
    const store = testStore();
    for (const log of await source('claude-code').findLogs(envOf(home))) await ingestHistoryLog({ store, source: source('claude-code'), log });
    store.close();
    const db = [store.dbPath, `${store.dbPath}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f).toString('latin1')).join('');
    expect(db).not.toContain('4711');
    expect(db).not.toContain(secret);
    expect(rows(store.dbPath).prompts.map((p) => p.text)).toEqual(['say hello using bash']);
  });
});

describe('Kimi Code subagents', () => {
  it('an agent other than main is read as a subagent of the session', async () => {
    const kimi = HOST_CASES.find((c) => c.host === 'kimi')!;
    const home = tempDir('home');
    const [main] = kimi.place(home);
    const sessionDir = join(main, '..', '..', '..');
    const state = JSON.parse(readFileSync(join(sessionDir, 'state.json'), 'utf8')) as { agents: Record<string, unknown> };
    state.agents['coder-1'] = { homedir: join(sessionDir, 'agents', 'coder-1'), type: 'sub' };
    writeFileSync(join(sessionDir, 'state.json'), JSON.stringify(state));
    const sub = join(sessionDir, 'agents', 'coder-1', 'wire.jsonl');
    mkdirSync(join(sub, '..'), { recursive: true });
    writeFileSync(sub, readFileSync(main, 'utf8').replaceAll('call_sr1i3ibzwv', 'call_sub_1'));
    const { results, rows: r } = await importHome('kimi', home);
    expect(results.map((x) => x.status)).toEqual(['done', 'done']);
    const subEvents = r.events.filter((e) => (e.payload as { agentId?: string }).agentId === 'coder-1');
    expect(subEvents.length).toBeGreaterThan(0);
    expect(subEvents.every((e) => (e.payload as { isSubagent?: boolean }).isSubagent === true)).toBe(true);
    expect(r.observations.filter((o) => o.toolUseId === 'call_sub_1')).toHaveLength(1);
    expect(r.sessions.map((s) => [s.id, s.isSubagent])).toEqual([[kimi.sessionId, 0], [`${kimi.sessionId}:coder-1`, 1]]);
    expect(r.prompts.map((p) => p.session)).toEqual([kimi.sessionId, `${kimi.sessionId}:coder-1`]);
    expect(subEvents.every((e) => (e.payload as { parentSessionId?: string }).parentSessionId === kimi.sessionId)).toBe(true);
    expect(r.events.filter((e) => (e.payload as { agentId?: string }).agentId === undefined).every((e) => (e.payload as { isSubagent?: boolean }).isSubagent !== true)).toBe(true);
  });
});

describe('Kimi CLI (Python) context (documented format, hand-made)', () => {
  it('finds the work directory by its md5 in kimi.json and reads prompts, tools and answers', async () => {
    const home = tempDir('home');
    const cwd = '/home/dev/projects/demo';
    const md5 = createHash('md5').update(cwd).digest('hex');
    const file = join(home, '.kimi', 'sessions', md5, 'sess-k1', 'context.jsonl');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(join(home, '.kimi', 'kimi.json'), JSON.stringify({ work_dirs: [{ path: '/elsewhere' }, { path: cwd, last_session_id: 'sess-k1' }] }));
    writeFileSync(file, [
      { role: '_system_prompt', content: 'You are Kimi.' },
      { role: 'user', content: 'say hello using the shell' },
      { role: 'assistant', content: '', tool_calls: [{ type: 'function', id: 'Shell:0', function: { name: 'Shell', arguments: '{"command":"echo hello-from-mock"}' } }] },
      { role: 'tool', tool_call_id: 'Shell:0', content: [{ type: 'text', text: 'hello-from-mock' }] },
      { role: 'assistant', content: 'All done.' },
      { role: '_checkpoint', id: 1 },
      { role: '_usage', token_count: 15 },
    ].map((r) => JSON.stringify(r)).join('\n') + '\n');
    expect(source('kimi-cli').verified).toBe(false);
    const { results, rows: r, cwds } = await importHome('kimi-cli', home);
    expect(results).toEqual([expect.objectContaining({ status: 'done', deadLetters: 0 })]);
    expect(r.prompts).toEqual([{ session: 'sess-k1', nativeId: null, text: 'say hello using the shell' }]);
    expect(r.observations.map((o) => [o.toolUseId, o.toolName])).toEqual([['Shell:0', 'Bash']]);
    expect(cwds).toEqual(new Set([cwd]));
  });
});

describe('Cursor agent transcripts (documented format, hand-made)', () => {
  it('resolves the project slug to the directory that exists and reads prompts, answers and tool calls', async () => {
    const home = tempDir('home');
    const project = join(home, 'work', 'my.app-v2');
    mkdirSync(project, { recursive: true });
    mkdirSync(join(home, 'work', 'my'), { recursive: true }); // a decoy: "my" + "app-v2" does not exist
    const slug = project.slice(1).replace(/[/.]/g, '-');
    const id = '5d2c1b7e-0000-4000-8000-00000000c0de';
    const file = join(home, '.cursor', 'projects', slug, 'agent-transcripts', id, `${id}.jsonl`);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, [
      { role: 'user', message: { content: [{ type: 'text', text: '<user_query>\nsay hello using the shell\n</user_query>' }] } },
      { role: 'assistant', message: { content: [{ type: 'text', text: 'Running it.' }, { type: 'tool_use', name: 'Shell', input: { command: 'echo hello-from-mock' } }] } },
      { role: 'assistant', message: { content: [{ type: 'text', text: 'All done.' }] } },
      { type: 'turn_ended', status: 'success' },
    ].map((r) => JSON.stringify(r)).join('\n') + '\n');
    expect(source('cursor').verified).toBe(false);
    const { results, rows: r, cwds } = await importHome('cursor', home);
    expect(results).toEqual([expect.objectContaining({ status: 'done', deadLetters: 0 })]);
    expect(cwds).toEqual(new Set([project]));
    expect(r.prompts).toEqual([{ session: id, nativeId: null, text: 'say hello using the shell' }]);
    expect(r.events.filter((e) => e.kind === 'tool_use').map((e) => (e.payload as { toolName: string }).toolName)).toEqual(['Bash']);
    expect(r.events.filter((e) => e.kind === 'assistant_message').map((e) => (e.payload as { message: string }).message).sort()).toEqual(['All done.', 'Running it.']);
  });
});

describe('injected context in a user turn', () => {
  it('Gemini: the <hook_context> parts of a user turn are not part of the prompt', async () => {
    const gemini = HOST_CASES.find((c) => c.host === 'gemini')!;
    const home = tempDir('home');
    const [file] = gemini.place(home);
    const hook = { text: '<hook_context># claude-mem: memory of /home/dev/projects/demo\n- earlier work\n</hook_context>' };
    writeFileSync(file, readFileSync(file, 'utf8').replace('"content":[{"text":"say hello using the shell"}]', `"content":[${JSON.stringify(hook)},{"text":"say hello using the shell"}]`));
    expect(readFileSync(file, 'utf8')).toContain('earlier work');
    const { rows: r } = await importHome('gemini', home);
    expect(r.prompts.map((p) => p.text)).toEqual([gemini.prompt]);
  });
});
