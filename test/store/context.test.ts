import { afterEach, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../src/worker/store/sqlite-store.js';
import { manualSessionId } from '../../src/worker/store/ingest.js';
import { at, bash, ev, openTemp, prompt } from './fixtures.js';

const open: SqliteStore[] = [];
function store(): SqliteStore {
  const s = openTemp();
  open.push(s);
  return s;
}
afterEach(() => {
  while (open.length) open.pop()!.close();
});

const P = '/home/dev/api';

function seed(s: SqliteStore, n = 30): void {
  s.ingest([
    prompt('add rate limiting to the login endpoint', { cwd: P, sessionId: 'old', at: at(1) }),
    ...Array.from({ length: n }, (_, i) => bash(`npm test -- limiter-${i}`, `ok ${i}`, { cwd: P, sessionId: 'old', at: at(10 + i), toolUseId: `c${i}` })),
    ev({ kind: 'assistant_message', cwd: P, sessionId: 'old', message: 'Rate limiting is in place.' }),
    ev({ kind: 'session_end', cwd: P, sessionId: 'old', at: at(100) }),
    bash('echo from-the-asking-session', 'x', { cwd: P, sessionId: 'now', at: at(200), toolUseId: 'n1' }),
    bash('echo other-project', 'x', { cwd: '/home/dev/other', sessionId: 'o', at: at(300), toolUseId: 'o1' }),
  ]);
}

describe('context', () => {
  it('gives the last summary and recent observations, excluding the asking session', () => {
    const s = store();
    seed(s);
    const c = s.context({ cwd: P, host: 'claude-code', hostSessionId: 'now' });
    expect(c.project).toBe(P);
    expect(c.text).toContain(P);
    expect(c.text).toContain('rate limiting');
    expect(c.text).not.toContain('from-the-asking-session');
    expect(c.text).not.toContain('other-project');
    expect(c.text).toContain('mem_get_observations');
    expect(c.summaryId).not.toBeNull();
    expect(c.observationIds.length).toBe(20);
    for (const id of c.observationIds) expect(c.text).toMatch(new RegExp(`^#${id} \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} .+$`, 'm'));
    // Newest observations are the ones kept, shown oldest first.
    const shown = [...c.text.matchAll(/^#(\d+) /gm)].map((m) => Number(m[1]));
    expect(shown).toEqual([...c.observationIds].reverse());
    expect(c.approxTokens).toBe(Math.ceil(c.text.length / 4));
  });

  it('stays within maxTokens', () => {
    const s = store();
    seed(s, 120);
    for (const maxTokens of [40, 100, 300, 1500]) {
      const c = s.context({ project: P, maxTokens, limit: 200 });
      expect(c.text.length, `maxTokens ${maxTokens}`).toBeLessThanOrEqual(maxTokens * 4);
      expect(c.approxTokens).toBeLessThanOrEqual(maxTokens);
    }
    const small = s.context({ project: P, maxTokens: 100 });
    const big = s.context({ project: P, maxTokens: 1500 });
    expect(big.observationIds.length).toBeGreaterThan(small.observationIds.length);
    for (const id of small.observationIds) expect(small.text).toContain(`#${id} `);
  });

  it('is empty when there is nothing to say', () => {
    const s = store();
    expect(s.context({ cwd: '/nowhere' })).toEqual({ project: '/nowhere', text: '', observationIds: [], summaryId: null, approxTokens: 0 });
    s.ingest([bash('ls', 'x', { cwd: '/solo', sessionId: 'only' })]);
    expect(s.context({ cwd: '/solo', host: 'claude-code', hostSessionId: 'only' }).text).toBe('');
    expect(s.context({ cwd: '/solo' }).text).not.toBe('');
  });
});

describe('timeline', () => {
  it('centres on an observation, in time order, within its project', () => {
    const s = store();
    seed(s, 10);
    const [anchor] = s.search({ query: 'limiter', limit: 200 }).filter((h) => h.title.includes('limiter-5'));
    const items = s.timeline({ anchorId: anchor.id, before: 3, after: 2 });
    expect(items).toHaveLength(6);
    expect(items[3]).toMatchObject({ kind: 'observation', id: anchor.id });
    expect(items.map((i) => i.title).slice(0, 3).join()).toContain('limiter-4');
    const times = items.map((i) => i.createdAt);
    expect([...times].sort()).toEqual(times);
    expect(items.every((i) => i.project === P)).toBe(true);
  });

  it('shows the newest items of a session, with its start, prompts, summary and end', () => {
    const s = store();
    seed(s, 3);
    const items = s.timeline({ hostSessionId: 'old', host: 'claude-code', before: 20 });
    expect(items.map((i) => i.kind)).toEqual(['session_start', 'prompt', 'observation', 'observation', 'observation', 'summary', 'session_end']);
    expect(items.at(-1)!.createdAt).toBe(at(100));
    expect(s.timeline({ hostSessionId: 'missing' })).toEqual([]);
    expect(s.timeline({ anchorId: 999_999 })).toEqual([]);
    expect(s.timeline({ project: P, before: 2 })).toHaveLength(3);
  });

  it('shows the project worked on last when nothing is named', () => {
    const s = store();
    expect(s.timeline({})).toEqual([]);
    seed(s, 3); // the last event is in /home/dev/other
    const items = s.timeline({ before: 50 });
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((i) => i.project === '/home/dev/other')).toBe(true);
    expect(items.at(-1)!.title).toContain('other-project');
  });
});

describe('saveMemory and reads', () => {
  it('saves a memory in a synthetic session per project, privacy applied', () => {
    const s = store();
    const m = s.saveMemory({ text: 'Deploys go through the blue/green script.\n<private>root pw 1234</private>', project: 'github.com/acme/api', concepts: ['deploy'], files: ['ops/deploy.sh'] });
    expect(m).toMatchObject({ type: 'memory', project: 'github.com/acme/api', title: 'Deploys go through the blue/green script.', concepts: ['deploy'], filesRead: ['ops/deploy.sh'] });
    expect(m.narrative).not.toContain('1234');
    expect(m.hostSessionId).toBe(manualSessionId('github.com/acme/api'));
    const again = s.saveMemory({ text: 'Second note', title: 'Custom title', project: 'github.com/acme/api' });
    expect(again.sessionId).toBe(m.sessionId);
    expect(again.title).toBe('Custom title');
    expect(s.search({ query: 'blue green', type: 'memory' }).map((h) => h.id)).toEqual([m.id]);
    expect(s.search({ query: '', file: 'deploy.sh' }).map((h) => h.id)).toEqual([m.id]);
    expect(() => s.saveMemory({ text: '   ', project: 'x' })).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    expect(() => s.saveMemory({ text: 'no project' })).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    expect(() => s.saveMemory({ text: '<private>all of it</private>', project: 'x' })).toThrow(expect.objectContaining({ code: 'invalid_input' }));
  });

  it('saves into a given session', () => {
    const s = store();
    s.ingest([prompt('hello', { sessionId: 'live', cwd: P })]);
    const m = s.saveMemory({ text: 'Remember the staging URL', host: 'claude-code', hostSessionId: 'live' });
    expect(m).toMatchObject({ hostSessionId: 'live', project: P, promptNumber: 1 });
  });

  it('gets observations and prompts by id, in the order asked, skipping unknown ids', () => {
    const s = store();
    s.ingest([prompt('first', { promptId: 'n1' }), bash('ls', 'a', { toolUseId: 'l1' }), bash('pwd', '/', { toolUseId: 'l2' })]);
    const obs = s.getObservations([2, 999, 1, 2]);
    expect(obs.map((o) => o.id)).toEqual([2, 1]);
    expect(obs[1]).toMatchObject({ host: 'claude-code', hostSessionId: 'sess-1', type: 'command', toolName: 'Bash', toolUseId: 'l1', promptNumber: 1 });
    expect(Array.isArray(obs[1].facts)).toBe(true);
    expect(s.getPrompts([1])).toEqual([expect.objectContaining({ id: 1, number: 1, nativeId: 'n1', text: 'first', hostSessionId: 'sess-1' })]);
    expect(s.getObservations([])).toEqual([]);
  });
});
