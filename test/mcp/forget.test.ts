// The MCP tools after `claude-mem forget`: search, details, timeline and context never return a
// forgotten row (the database is read directly here; the worker reads the same tables).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, tempHome } from '../helpers/temp.js';
import { callTool, cli, connectMcp, seed, type McpSession } from './stdio-helpers.js';

describe('claude-mem mcp after forget', () => {
  const { env, dataDir } = tempHome();
  const project = tempDir('proj');
  let mcp: McpSession;
  let forgotten: number;

  beforeAll(async () => {
    seed(dataDir, project);
    const db = new Database(join(dataDir, 'claude-mem.db'), { readonly: true });
    forgotten = (db.prepare(`SELECT id FROM observations WHERE narrative LIKE '%xylophone%' OR title LIKE '%xylophone%'`).get() as { id: number }).id;
    db.close();
    // No real worker: a stand-in that exits, so every answer comes from the database file.
    const stub = join(tempDir('stub'), 'fake-worker.mjs');
    writeFileSync(stub, 'process.exit(0);\n');
    env.CLAUDE_MEM_WORKER_ENTRY = stub;
    const r = await cli(['forget', String(forgotten)], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Forgotten: 1 observation');
    mcp = await connectMcp(env, project);
  });
  afterAll(async () => mcp?.close());

  it('mem_search does not find it, by any of its words', async () => {
    for (const query of ['xylophone', 'bench suite xylophone']) {
      const r = await callTool(mcp.client, 'mem_search', { query });
      const ids = ((r.structuredContent as { results: { turns: { evidence: { kind: string; id: number }[] }[] }[] }).results ?? [])
        .flatMap((x) => x.turns.flatMap((t) => t.evidence)).filter((e) => e.kind === 'observation').map((e) => e.id);
      expect(ids).not.toContain(forgotten);
      expect(JSON.stringify(r)).not.toContain('xylophone suite');
    }
  });

  it('mem_get_observations, mem_timeline and mem_context do not return it', async () => {
    const got = await callTool(mcp.client, 'mem_get_observations', { ids: [forgotten] });
    expect(JSON.stringify(got)).not.toContain('xylophone');
    const tl = await callTool(mcp.client, 'mem_timeline', { session: 'mcp-test-session-1', before: 20, after: 20 });
    expect(JSON.stringify(tl)).not.toContain('xylophone');
    const ctx = await callTool(mcp.client, 'mem_context', {});
    expect(JSON.stringify(ctx)).not.toContain('xylophone');
    // The rest of the session is still there.
    expect(JSON.stringify(tl)).toContain('quokka');
  });
});
