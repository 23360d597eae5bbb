// `claude-mem mcp` end to end: the SDK's own client over stdio against dist/bin.js, with a seeded
// database, first with no worker (answers come from the database file), then through a running worker.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST_BIN, tempDir, tempHome } from '../helpers/temp.js';
import { callTool, cli, connectMcp, seed, SESSION, textOf, type McpSession } from './stdio-helpers.js';

type Hit = { kind: string; id: number; title: string };
type Found = { via: string; results: { session: string; turns: { evidence: Hit[] }[] }[] };
/** Every evidence row of a mem_search answer. */
const hitsOf = (structured: unknown): Hit[] => (structured as Found).results.flatMap((r) => r.turns.flatMap((t) => t.evidence));

describe('claude-mem mcp, worker down', () => {
  const { env, dataDir } = tempHome();
  const project = tempDir('proj');
  const stub = join(tempDir('stub'), 'fake-worker.mjs');
  let mcp: McpSession;

  beforeAll(async () => {
    seed(dataDir, project);
    // ensureWorker runs this instead of a real worker: it proves the kick without leaving a process behind.
    writeFileSync(stub, "import { writeFileSync } from 'node:fs';\nwriteFileSync(process.env.CM_KICK_MARKER, String(process.pid));\n");
    env.CLAUDE_MEM_WORKER_ENTRY = stub;
    env.CM_KICK_MARKER = join(dataDir, 'kicked');
    env.CLAUDE_MEM_DEBUG = '1';
    mcp = await connectMcp(env, project);
  });
  afterAll(async () => mcp?.close());

  it('lists the five tools with input schemas', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['mem_context', 'mem_get_observations', 'mem_save', 'mem_search', 'mem_timeline']);
    for (const t of tools) expect(Object.keys(t.inputSchema.properties ?? {}).length).toBeGreaterThan(0);
  });

  it('search finds the seeded tool use by a word, from the database, and kicks the worker', async () => {
    const r = await callTool(mcp.client, 'mem_search', { query: 'xylophone' });
    expect(r.isError).toBeFalsy();
    const s = { via: (r.structuredContent as Found).via, results: hitsOf(r.structuredContent) };
    expect(s.via).toBe('database');
    const hit = s.results.find((h) => h.kind === 'observation');
    expect(hit, textOf(r)).toBeDefined();
    expect((r.structuredContent as Found).results[0].session).toBe(SESSION);
    expect(textOf(r)).toContain(`#${hit!.id}`);
    for (let i = 0; i < 50 && !existsSync(join(dataDir, 'kicked')); i++) await new Promise((res) => setTimeout(res, 100));
    expect(existsSync(join(dataDir, 'kicked'))).toBe(true);
    expect(mcp.stderr()).toMatch(/worker unavailable/);
  });

  it('timeline around a hit, then full details with get_observations', async () => {
    const search = await callTool(mcp.client, 'mem_search', { query: 'quokka', type: 'edit' });
    const hit = hitsOf(search.structuredContent)[0];
    expect(hit, textOf(search)).toBeDefined();

    const tl = await callTool(mcp.client, 'mem_timeline', { anchor: hit.id, before: 5, after: 5 });
    expect(tl.isError).toBeFalsy();
    const items = (tl.structuredContent as { items: { kind: string; id: number }[] }).items;
    expect(items.some((i) => i.kind === 'observation' && i.id === hit.id)).toBe(true);
    expect(items.length).toBeGreaterThan(1);
    expect(textOf(tl)).toContain(`→ `);

    const got = await callTool(mcp.client, 'mem_get_observations', { ids: [hit.id, 999_999] });
    const s = got.structuredContent as { observations: { id: number; filesModified: string[]; session: string }[]; missing: number[] };
    expect(s.observations).toHaveLength(1);
    expect(s.observations[0].filesModified.join(' ')).toContain('quokka-exporter.ts');
    expect(s.missing).toEqual([999_999]);
    expect(textOf(got)).toContain('quokka-exporter.ts');
  });

  it('mem_save writes with the worker down, and search finds it', async () => {
    const saved = await callTool(mcp.client, 'mem_save', { text: 'The marmoset cache must be cleared after schema changes', concepts: ['cache'] });
    expect(saved.isError, textOf(saved)).toBeFalsy();
    const obs = (saved.structuredContent as { via: string; observation: { id: number; type: string } });
    expect(obs.via).toBe('database');
    const r = await callTool(mcp.client, 'mem_search', { query: 'marmoset', project: '.' });
    expect(hitsOf(r.structuredContent).map((h) => h.id)).toContain(obs.observation.id);
  });

  it('mem_context returns the project digest as text', async () => {
    const r = await callTool(mcp.client, 'mem_context', {});
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent as { text: string; observationIds: number[] };
    expect(s.text.length).toBeGreaterThan(0);
    expect(s.observationIds.length).toBeGreaterThan(0);
    expect(textOf(r)).toBe(s.text);
  });

  it('invalid arguments give tool errors, not a crash', async () => {
    expect((await callTool(mcp.client, 'mem_get_observations', { ids: 'one' })).isError).toBe(true);
    expect((await callTool(mcp.client, 'mem_search', { query: 'x', since: 'soon' })).isError).toBe(true);
    expect((await callTool(mcp.client, 'mem_save', {})).isError).toBe(true);
    expect((await callTool(mcp.client, 'mem_search', { query: 'xylophone' })).isError).toBeFalsy();
  });
});

describe('claude-mem mcp, worker up', () => {
  const { env, dataDir } = tempHome();
  const project = tempDir('proj');
  let mcp: McpSession | undefined;

  beforeAll(async () => {
    seed(dataDir, project);
    const started = await cli(['start'], env);
    if (started.code !== 0) throw new Error(`claude-mem start failed: ${started.stderr}${started.stdout}`);
    mcp = await connectMcp(env, project);
  }, 60_000);
  afterAll(async () => {
    await mcp?.close();
    await cli(['stop'], env);
  }, 30_000);

  it('reads and saves through the worker', async () => {
    expect(JSON.parse(readFileSync(join(dataDir, 'worker.json'), 'utf8')).port).toBeGreaterThan(0);
    const r = await callTool(mcp!.client, 'mem_search', { query: 'xylophone' });
    const s = { via: (r.structuredContent as Found).via, results: hitsOf(r.structuredContent) };
    expect(s.via).toBe('worker');
    expect(s.results.some((h) => h.kind === 'observation')).toBe(true);

    const saved = await callTool(mcp!.client, 'mem_save', { text: 'Pangolin releases go out on Thursdays', title: 'Release day' });
    const obs = saved.structuredContent as { via: string; observation: { id: number; title: string } };
    expect(obs.via).toBe('worker');
    expect(obs.observation.title).toBe('Release day');

    const found = await callTool(mcp!.client, 'mem_search', { query: 'pangolin' });
    expect(hitsOf(found.structuredContent).map((h) => h.id)).toContain(obs.observation.id);

    const got = await callTool(mcp!.client, 'mem_get_observations', { ids: [obs.observation.id] });
    expect((got.structuredContent as { via: string }).via).toBe('worker');
    expect(textOf(got)).toContain('Pangolin releases go out on Thursdays');

    const tl = await callTool(mcp!.client, 'mem_timeline', { session: SESSION });
    expect((tl.structuredContent as { via: string; items: unknown[] }).items.length).toBeGreaterThan(0);
    const ctx = await callTool(mcp!.client, 'mem_context', { cwd: project });
    expect((ctx.structuredContent as { via: string }).via).toBe('worker');
  });
});

describe('claude-mem mcp process', () => {
  it('writes nothing to stdout on its own and exits when stdin closes', async () => {
    const { env, dataDir } = tempHome();
    mkdirSync(dataDir, { recursive: true });
    const child = spawn(process.execPath, [DIST_BIN, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await new Promise((r) => setTimeout(r, 500));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.stdin.end();
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 5000))]);
    if (code === 'timeout') child.kill('SIGKILL');
    expect(code).toBe(0);
    expect(out).toBe('');
  });
});
