import { describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { manualSessionId } from '../../src/store/ingest.js';
import { at, bash, ev, evidence, openTemp, prompt, query, useTempStore } from './fixtures.js';

const { store } = useTempStore();

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
    expect(s.context({ cwd: '/nowhere' })).toMatchObject({ project: '/nowhere', text: '', observationIds: [], summaryId: null, approxTokens: 0, kind: 'none' });
    s.ingest([bash('ls', 'x', { cwd: '/solo', sessionId: 'only' })]);
    expect(s.context({ cwd: '/solo', host: 'claude-code', hostSessionId: 'only' }).text).toBe('');
    expect(s.context({ cwd: '/solo' }).text).not.toBe('');
  });
});

describe('timeline', () => {
  it('centres on an observation, in time order, within its project', () => {
    const s = store();
    seed(s, 10);
    const [anchor] = query<{ id: number; title: string }>(s, `SELECT id, title FROM observations WHERE title LIKE '%limiter-5%' ORDER BY id LIMIT 1`);
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
    expect(evidence(s.search({ query: 'blue green', type: 'memory' })).map((h) => h.id)).toEqual([m.id]);
    expect(evidence(s.search({ query: '', file: 'deploy.sh' })).map((h) => h.id)).toEqual([m.id]);
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

  it('shows more than one past session: asked, found, outcome, changed, also for sessions that never ended', () => {
    const s = store();
    s.ingest([
      prompt('move the queue to redis streams', { cwd: P, sessionId: 's-old', at: at(1) }),
      ev({ kind: 'assistant_message', cwd: P, sessionId: 's-old', message: 'The cause was the consumer group lag. We will use XAUTOCLAIM instead of polling.', at: at(2) }),
      ev({ kind: 'assistant_message', cwd: P, sessionId: 's-old', message: 'Done: the queue runs on streams now.', at: at(2) }),
      ev({ kind: 'session_end', cwd: P, sessionId: 's-old', at: at(3) }),
      prompt('add retries to the webhook sender', { cwd: P, sessionId: 's-new', at: at(10) }),
      ev({ kind: 'tool_result', toolName: 'Edit', toolUseId: 'e1', cwd: P, sessionId: 's-new', at: at(11),
        toolInput: { file_path: `${P}/src/webhook.ts`, old_string: 'a', new_string: 'b' }, toolResponse: 'ok' }),
      ev({ kind: 'assistant_message', cwd: P, sessionId: 's-new', message: 'Retries with backoff are in; two tests still fail.', at: at(12) }),
    ]);
    const c = s.context({ cwd: P, host: 'claude-code', hostSessionId: 'asking' });
    expect(c.text).toMatch(/## Session .*\nAsked: add retries to the webhook sender[\s\S]*Outcome: Retries with backoff are in; two tests still fail\.\nChanged: src\/webhook\.ts/);
    expect(c.text).toContain('Asked: move the queue to redis streams');
    expect(c.text).toContain('Found: The cause was the consumer group lag.');
    expect(c.text.indexOf('webhook sender')).toBeLessThan(c.text.indexOf('redis streams')); // newest first
    expect(c.summaryIds).toHaveLength(1);
  });

  it('gives the project memory once per session, then only what a prompt asks and was not given', () => {
    const s = store();
    seed(s);
    s.ingest([bash('kubectl rollout restart deploy/gateway', 'restarted', { cwd: P, sessionId: 'ops', at: at(150), toolUseId: 'k1' })]);
    const ask = (mode: 'session' | 'prompt', promptText?: string) =>
      s.context({ cwd: P, host: 'claude-code', hostSessionId: 'now', mode, prompt: promptText });
    const start = ask('session');
    expect(start.kind).toBe('project');
    expect(start.text).toContain('rate limiting');
    // The same session asking again at a prompt: not the project block again.
    expect(ask('prompt', 'ok thanks').text).toBe('');
    expect(ask('prompt', 'please continue with the next step').text).toBe('');
    const related = ask('prompt', 'restart the gateway deployment with kubectl');
    expect(related.kind).toBe('relevant');
    expect(related.text).toContain('kubectl rollout restart');
    expect(related.text).not.toContain('# claude-mem: memory of');
    expect(related.approxTokens).toBeLessThanOrEqual(500);
    // Given once: the same question again brings nothing new.
    expect(ask('prompt', 'restart the gateway deployment with kubectl').text).toBe('');
    // A new context window (resume, clear, compact) starts over.
    expect(ask('session').kind).toBe('project');
    // A session whose host injects only at prompts gets the project block with its first prompt.
    const first = s.context({ cwd: P, host: 'claude-code', hostSessionId: 'prompt-only', mode: 'prompt', prompt: 'hello' });
    expect(first.kind).toBe('project');
    expect(s.context({ cwd: P, host: 'claude-code', hostSessionId: 'prompt-only', mode: 'prompt', prompt: 'hello again' }).text).toBe('');
  });

  it('keeps a prompt-time injection within a third of the token budget', () => {
    const s = store();
    for (let i = 0; i < 12; i++) {
      s.ingest([
        prompt(`tune the gateway timeout number ${i} ${'detail '.repeat(40)}`, { cwd: P, sessionId: `g${i}`, at: at(10 + i) }),
        ev({ kind: 'assistant_message', cwd: P, sessionId: `g${i}`, message: `gateway timeout set to ${i}s ${'because '.repeat(30)}`, at: at(20 + i) }),
      ]);
    }
    s.context({ cwd: P, host: 'claude-code', hostSessionId: 'b', mode: 'session', maxTokens: 600 });
    const c = s.context({ cwd: P, host: 'claude-code', hostSessionId: 'b', mode: 'prompt', prompt: 'gateway timeout value', maxTokens: 600 });
    expect(c.kind).toBe('relevant');
    expect(c.text.length).toBeLessThanOrEqual(200 * 4);
  });
});
