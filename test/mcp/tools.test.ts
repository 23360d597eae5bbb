// The tools over an in-memory transport with a scripted reader: schemas, texts, argument handling, errors.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { registerTools } from '../../src/mcp/tools.js';
import { RequestRejectedError } from '../../src/mcp/reader.js';
import { FakeReader } from './fake-reader.js';

const TOOLS = ['mem_search', 'mem_timeline', 'mem_get_observations', 'mem_save', 'mem_context'];

let reader: FakeReader;
let client: Client;
let server: McpServer;

beforeEach(async () => {
  reader = new FakeReader();
  server = new McpServer({ name: 'claude-mem', version: 'test' });
  registerTools(server, { reader, cwd: async () => '/w', projectOf: (cwd) => `project-of:${cwd}`, host: () => 'codex' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 'test', version: '1' });
  await Promise.all([server.connect(a), client.connect(b)]);
});

afterEach(async () => {
  await client.close();
  await server.close();
});

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('mcp tools', () => {
  it('lists five tools, each with a description and an input and output schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(80);
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      for (const prop of Object.values(t.inputSchema.properties ?? {})) expect((prop as { description?: string }).description).toBeTruthy();
    }
    const search = tools.find((t) => t.name === 'mem_search')!;
    expect(search.inputSchema.required).toEqual(['query']);
    expect(search.description).toMatch(/mem_timeline/);
    expect(tools.find((t) => t.name === 'mem_get_observations')!.inputSchema.required).toEqual(['ids']);
  });

  it('mem_search: the current project by default (widened when empty), "*" = all, filters resolved', async () => {
    const r = await call('mem_search', { query: 'parser', host: 'claude', type: 'command', since: '7d', until: '2025-03-02', limit: 5 });
    expect(r.isError).toBeFalsy();
    const q = reader.calls[0].arg as Record<string, unknown>;
    expect(q).toMatchObject({ query: 'parser', project: 'project-of:/w', widen: true, host: 'claude-code', type: 'command', until: '2025-03-02', limit: 5, offset: 0 });
    expect(Date.now() - Date.parse(q.since as string)).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(text(r)).toMatch(/^1\. session sess-1 · claude-code · 2025-03-01 10:00$/m);
    expect(text(r)).toMatch(/^ {3}Asked: run the tests$/m);
    expect(text(r)).toMatch(/^ {3}#1 \[command\] Ran npm test #1 — vitest ran 12 tests/m);
    expect(text(r)).not.toMatch(/prompt #7/); // the request itself is shown as "Asked"
    expect(text(r)).toMatch(/mem_get_observations \{"ids": \[1, 2\]\}/);
    expect(r.structuredContent).toMatchObject({ via: 'database', project: 'project-of:/w', widened: false });
    expect((r.structuredContent as { results: unknown[] }).results).toHaveLength(2);

    await call('mem_search', { query: 'x', project: '.' });
    expect(reader.calls[1].arg).toMatchObject({ project: 'project-of:/w', widen: true });
    await call('mem_search', { query: 'x', project: '*' });
    expect(reader.calls[2].arg).toMatchObject({ project: undefined, widen: false });
    await call('mem_search', { query: 'x', project: 'other' });
    expect(reader.calls[3].arg).toMatchObject({ project: 'other', widen: false });
  });

  it('mem_timeline: anchor alone is not narrowed to the current project; no args = current project', async () => {
    const r = await call('mem_timeline', { anchor: 2, before: 3 });
    expect(reader.calls[0].arg).toEqual({ anchorId: 2, hostSessionId: undefined, host: undefined, project: undefined, before: 3, after: 5 });
    expect(text(r)).toMatch(/→ 2025-03-01 10:00 #2 — Edited parser.ts/);
    expect(text(r)).toMatch(/session started — startup/);
    await call('mem_timeline', {});
    expect(reader.calls[1].arg).toMatchObject({ project: 'project-of:/w' });
  });

  it('mem_get_observations: details, duplicates folded, missing ids reported', async () => {
    const r = await call('mem_get_observations', { ids: [2, 1, 2, 404] });
    expect(reader.calls[0].arg).toEqual([2, 1, 404]);
    expect(text(r)).toMatch(/#2 \[edit\] Edited parser.ts/);
    expect(text(r)).toMatch(/Files modified: \/w\/src\/parser.ts/);
    expect(text(r)).toMatch(/Not found: #404/);
    const s = r.structuredContent as { observations: { id: number }[]; missing: number[] };
    expect(s.observations.map((o) => o.id)).toEqual([2, 1]);
    expect(s.missing).toEqual([404]);
  });

  it('mem_save: current project, host from the client, relative files made absolute', async () => {
    const r = await call('mem_save', { text: 'Use pnpm, not npm', concepts: ['tooling'], files: ['package.json'] });
    expect(r.isError).toBeFalsy();
    expect(reader.calls[0].arg).toMatchObject({
      text: 'Use pnpm, not npm', project: 'project-of:/w', cwd: '/w', host: 'codex', concepts: ['tooling'], files: ['/w/package.json'],
    });
    expect(text(r)).toMatch(/^Saved as #99/);
    const star = await call('mem_save', { text: 'x', project: '*' });
    expect(star.isError).toBe(true);
  });

  it('mem_context: current project by default, or the project of cwd', async () => {
    const r = await call('mem_context', {});
    expect(reader.calls[0].arg).toEqual({ project: 'project-of:/w', cwd: '/w', maxTokens: 1500 });
    expect(text(r)).toBe('# Memory\n- Ran npm test');
    await call('mem_context', { cwd: '/other', maxTokens: 500 });
    expect(reader.calls[1].arg).toEqual({ project: 'project-of:/other', cwd: '/other', maxTokens: 500 });
    expect((await call('mem_context', { cwd: 'relative' })).isError).toBe(true);
  });

  it('invalid arguments are tool errors, and the server keeps serving', async () => {
    for (const [name, args] of [
      ['mem_search', {}],
      ['mem_search', { query: 'x', limit: 0 }],
      ['mem_search', { query: 'x', type: 'nope' }],
      ['mem_search', { query: 'x', host: 'notahost' }],
      ['mem_search', { query: 'x', since: 'last tuesday' }],
      ['mem_get_observations', { ids: [] }],
      ['mem_get_observations', { ids: Array.from({ length: 51 }, (_, i) => i + 1) }],
      ['mem_get_observations', { ids: ['a'] }],
      ['mem_save', { text: '   ' }],
      ['mem_timeline', { anchor: -1 }],
    ] as const) {
      const r = await call(name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(text(r).length).toBeGreaterThan(5);
    }
    expect(text(await call('mem_search', { query: 'x', host: 'nope' }))).toMatch(/Unknown host "nope"/);
    expect((await call('mem_search', { query: 'ok' })).isError).toBeFalsy();
  });

  it('reader failures become readable tool errors', async () => {
    reader.fail = new RequestRejectedError('query too long');
    expect(text(await call('mem_search', { query: 'x' }))).toBe('query too long');
    reader.fail = new Error('SQLITE_CANTOPEN');
    const r = await call('mem_search', { query: 'x' });
    expect(r.isError).toBe(true);
    // The doctor command in the form that runs here (nothing installed in this HOME: the command running now).
    expect(text(r)).toMatch(/SQLITE_CANTOPEN\. Run "'[^']+' '[^']+' doctor" to find out why\./);
  });
});
