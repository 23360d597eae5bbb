import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import type { SearchAnswer } from '../../src/store/types.js';
import { at, bash, ev, evidence, openTemp, prompt } from './fixtures.js';

let s: SqliteStore;
const A = '/home/dev/shop';
const B = '/home/dev/blog';

beforeAll(() => {
  s = openTemp();
  s.ingest([
    prompt('make the checkout page faster', { cwd: A, sessionId: 'a1', at: at(10) }),
    bash('npm run build', 'webpack compiled the checkout bundle', { cwd: A, sessionId: 'a1', at: at(11), toolUseId: 'b1' }),
    ev({ kind: 'tool_result', toolName: 'Read', toolUseId: 'r1', cwd: A, sessionId: 'a1', at: at(12),
      toolInput: { file_path: `${A}/src/payment/stripe_client.ts` }, toolResponse: 'export const charge = () => {}' }),
    ev({ kind: 'tool_result', toolName: 'Edit', toolUseId: 'e1', cwd: A, sessionId: 'a1', at: at(13),
      toolInput: { file_path: `${A}/src/payment/refund.ts`, old_string: 'retry(2)', new_string: 'retry(5)' }, toolResponse: 'ok' }),
    ev({ kind: 'assistant_message', cwd: A, sessionId: 'a1', message: 'The checkout is faster now.' }),
    ev({ kind: 'session_end', cwd: A, sessionId: 'a1', at: at(20) }),
    prompt('write a post about sqlite full text search', { cwd: B, sessionId: 'b1', host: 'codex', at: at(3600 * 24 * 3) }),
    bash('hugo new posts/fts.md', 'Content "posts/fts.md" created', { cwd: B, sessionId: 'b1', host: 'codex', at: at(3600 * 24 * 3 + 1), toolUseId: 'h1' }),
    ev({ kind: 'tool_result', toolName: 'Edit', toolUseId: 'e2', cwd: B, sessionId: 'b1', host: 'codex', at: at(3600 * 24 * 3 + 2),
      toolInput: { file_path: `${B}/content/posts/fts.md`, old_string: 'draft: true', new_string: 'draft: false' }, toolResponse: 'ok' }),
    ev({ kind: 'observation', title: 'Café naïve façade notes', message: 'Unicode words in the résumé', cwd: B, sessionId: 'b1', host: 'codex', at: at(3600 * 24 * 3 + 3) }),
  ]);
});
afterAll(() => s.close());

const sessionsOf = (a: SearchAnswer) => a.results.map((r) => r.hostSessionId);
const kinds = (a: SearchAnswer) => evidence(a).map((e) => e.kind).sort();

describe('search', () => {
  it('ranks by any of the words, ignoring function words, so a question finds its session', () => {
    expect(sessionsOf(s.search({ query: 'how did we make the checkout faster?' }))).toEqual(['a1']);
    expect(sessionsOf(s.search({ query: 'checkout hugo' })).sort()).toEqual(['a1', 'b1']);
    expect(kinds(s.search({ query: 'checkout faster' }))).toContain('prompt');
    expect(s.search({ query: 'what did we do about zanzibar' }).results).toEqual([]);
  });

  it('keeps quoted phrases exact, word for word', () => {
    expect(sessionsOf(s.search({ query: '"checkout page faster"' }))).toEqual(['a1']);
    expect(s.search({ query: '"faster checkout"' }).results).toEqual([]);
    expect(s.search({ query: '"page checkout"' }).results).toEqual([]);
    // Stems match outside quotes, never inside.
    expect(sessionsOf(s.search({ query: 'compiling bundles' }))).toEqual(['a1']);
    expect(s.search({ query: '"compiling the checkout bundles"' }).results).toEqual([]);
    // A phrase must occur; the other words only rank.
    expect(sessionsOf(s.search({ query: '"checkout bundle" hugo' }))).toEqual(['a1']);
  });

  it('supports prefixes, explicit and for words of four letters or more', () => {
    expect(evidence(s.search({ query: 'webp*' })).map((e) => e.title)).toEqual(['Ran `npm run build`']);
    expect(s.search({ query: 'web' }).results).toEqual([]); // three letters: the word only
    expect(sessionsOf(s.search({ query: 'webp' }))).toEqual(['a1']);
    expect(evidence(s.search({ query: 'stripe*', type: 'read' }))).toHaveLength(1);
  });

  it('returns sessions with request, outcome, turns and evidence ids of every kind', () => {
    const [r] = s.search({ query: 'webpack' }).results;
    expect(r).toMatchObject({
      hostSessionId: 'a1', host: 'claude-code', project: A, request: 'make the checkout page faster',
      outcome: 'The checkout is faster now.',
    });
    expect(r.summaryId).toBeGreaterThan(0);
    expect(r.turns[0]).toMatchObject({ promptNumber: 1, request: 'make the checkout page faster', outcome: 'The checkout is faster now.' });
    expect(r.turns[0].promptId).toBeGreaterThan(0);
    expect(r.turns[0].outcomeId).toBeGreaterThan(0);
    const [hit] = r.turns[0].evidence;
    expect(hit).toMatchObject({ kind: 'observation', type: 'command', promptNumber: 1, createdAt: at(11) });
    expect(hit.snippet).toContain('**webpack**');
    expect(s.getObservations([hit.id])[0].title).toBe(hit.title);
    expect(r.score).toBeGreaterThan(0);
  });

  it('finds what an assistant reply said, and the summary says what was found', () => {
    expect(kinds(s.search({ query: 'faster now', type: 'assistant' }))).toEqual(['assistant']);
    expect(sessionsOf(s.search({ query: 'faster', type: 'summary' }))).toEqual(['a1']);
  });

  it('does not let many observations crowd out prompts and summaries', () => {
    const t = openTemp();
    try {
      t.ingest([
        prompt('why does the deploy script fail on staging', { cwd: A, sessionId: 'p1', at: at(1) }),
        ev({ kind: 'session_end', cwd: A, sessionId: 'p1', at: at(2) }),
        ...Array.from({ length: 60 }, (_, i) => bash(`./deploy.sh staging --try ${i}`, 'deploy failed', { cwd: A, sessionId: `o${i}`, at: at(10 + i), toolUseId: `d${i}` })),
      ]);
      const a = t.search({ query: 'deploy staging', limit: 10 });
      expect(a.results).toHaveLength(10);
      expect(new Set(a.results.map((r) => r.hostSessionId)).size).toBe(10); // one result per session
      expect(sessionsOf(t.search({ query: 'deploy staging', limit: 100 }))).toContain('p1');
      expect(kinds(t.search({ query: 'why does the deploy fail', limit: 3 }))).toEqual(expect.arrayContaining(['prompt', 'summary']));
    } finally {
      t.close();
    }
  });

  it('filters by project, host and type, and widens to every project only when asked', () => {
    expect(s.search({ query: '', project: B }).results.every((r) => r.project === B)).toBe(true);
    expect(sessionsOf(s.search({ query: 'posts', host: 'codex' }))).toEqual(['b1']);
    expect(s.search({ query: 'posts', host: 'claude-code' }).results).toEqual([]);
    expect(s.search({ query: 'checkout', project: B }).results).toEqual([]);
    const wide = s.search({ query: 'checkout', project: B, widen: true });
    expect(wide).toMatchObject({ widened: true, project: null });
    expect(sessionsOf(wide)).toEqual(['a1']);
    expect(s.search({ query: 'hugo', project: B, widen: true })).toMatchObject({ widened: false, project: B });
    expect(evidence(s.search({ query: '', type: 'edit' })).map((h) => h.type)).toEqual(['edit', 'edit']);
    expect(kinds(s.search({ query: 'checkout', type: 'prompt' }))).toEqual(['prompt']);
    expect(kinds(s.search({ query: 'checkout', type: 'summary' }))).toEqual(['summary']);
    expect(evidence(s.search({ query: 'retry', type: 'edit', host: 'claude-code', project: A }))).toHaveLength(1);
    expect(s.search({ query: 'retry', type: 'command' }).results).toEqual([]);
  });

  it('filters by date and time, inclusive', () => {
    const day0 = at(0).slice(0, 10);
    const day3 = at(3600 * 24 * 3).slice(0, 10);
    expect(sessionsOf(s.search({ query: '', until: day0 }))).toEqual(['a1']);
    expect(sessionsOf(s.search({ query: '', since: day3 }))).toEqual(['b1']);
    expect(evidence(s.search({ query: 'checkout', since: at(11), until: at(11) })).map((h) => h.createdAt)).toEqual([at(11)]);
    expect(() => s.search({ query: '', since: 'last tuesday' })).toThrow(expect.objectContaining({ code: 'invalid_input' }));
  });

  it('filters by file: exact, suffix at a path boundary, or absolute path', () => {
    expect(evidence(s.search({ query: '', file: 'refund.ts' }))).toHaveLength(1);
    expect(evidence(s.search({ query: '', file: 'payment/refund.ts' }))).toHaveLength(1);
    expect(evidence(s.search({ query: '', file: `${A}/src/payment/refund.ts` }))).toHaveLength(1);
    expect(s.search({ query: '', file: 'fund.ts' }).results).toEqual([]);
    expect(evidence(s.search({ query: '', file: 'stripe_client.ts' }))[0].type).toBe('read');
    expect(evidence(s.search({ query: 'retry', file: 'refund.ts' }))).toHaveLength(1);
    expect(s.search({ query: 'hugo', file: 'refund.ts' }).results).toEqual([]);
    expect(evidence(s.search({ query: '', file: 'posts/fts.md', project: B }))).toHaveLength(1);
  });

  it('understands code terms: camelCase, snake_case, paths, flags, read-only and readonly', () => {
    const t = openTemp();
    try {
      t.ingest([
        bash('grep -rn parseConfig src', 'src/config/loader.ts: export function parseConfig()', { cwd: A, sessionId: 'c1', toolUseId: 'g1' }),
        bash('npm publish --dry-run', 'would publish 12 files', { cwd: A, sessionId: 'c2', toolUseId: 'g2' }),
        prompt('make the cache read-only for workers', { cwd: A, sessionId: 'c3' }),
        prompt('fix issue #14 in the importer', { cwd: A, sessionId: 'c4' }),
      ]);
      for (const q of ['parseConfig', 'parse_config', 'parse config', 'src/config/loader.ts', 'loader.ts']) {
        expect(sessionsOf(t.search({ query: q }))[0], q).toBe('c1');
      }
      expect(sessionsOf(t.search({ query: '--dry-run' }))).toEqual(['c2']);
      expect(sessionsOf(t.search({ query: 'dryrun' }))).toEqual(['c2']);
      expect(sessionsOf(t.search({ query: 'readonly cache' }))[0]).toBe('c3');
      expect(sessionsOf(t.search({ query: 'read-only' }))).toEqual(['c3']);
      expect(sessionsOf(t.search({ query: '#14' }))).toEqual(['c4']);
    } finally {
      t.close();
    }
  });

  it('ranks the sessions that touched the asking session\'s files higher', () => {
    const t = openTemp();
    try {
      t.ingest([
        bash('npm test', 'timeout in worker pool', { cwd: A, sessionId: 'x1', at: at(1), toolUseId: 'x' }),
        ev({ kind: 'tool_result', toolName: 'Edit', toolUseId: 'y', cwd: A, sessionId: 'x2', at: at(1),
          toolInput: { file_path: `${A}/src/pool.ts`, old_string: 'timeout', new_string: 'timeout * 2' }, toolResponse: 'ok' }),
        bash('npm test', 'timeout in worker pool', { cwd: A, sessionId: 'x3', at: at(1), toolUseId: 'z' }),
        ev({ kind: 'tool_result', toolName: 'Read', toolUseId: 'r', cwd: A, sessionId: 'me', at: at(2),
          toolInput: { file_path: `${A}/src/pool.ts` }, toolResponse: 'x' }),
      ]);
      const plain = sessionsOf(t.search({ query: 'timeout', project: A }));
      const mine = sessionsOf(t.search({ query: 'timeout', project: A, hostSessionId: 'me', sessionHost: 'claude-code' }));
      expect(mine[0]).toBe('x2');
      expect(plain.indexOf('x2')).toBeGreaterThanOrEqual(mine.indexOf('x2'));
    } finally {
      t.close();
    }
  });

  it('returns the most recent sessions first for an empty query, with limit and offset', () => {
    const all = s.search({ query: '' }).results;
    expect(sessionsOf({ results: all, project: null, widened: false })).toEqual(['b1', 'a1']);
    expect(s.search({ query: '', limit: 1 }).results).toEqual(all.slice(0, 1));
    expect(s.search({ query: '', limit: 1, offset: 1 }).results).toEqual(all.slice(1, 2));
    expect(s.search({ query: '', limit: 0 }).results).toHaveLength(1);
  });

  it('folds case and accents', () => {
    expect(evidence(s.search({ query: 'CAFE' }))).toHaveLength(1);
    expect(evidence(s.search({ query: 'resume' }))).toHaveLength(1);
    expect(evidence(s.search({ query: 'façade' }))).toHaveLength(1);
  });

  it('never throws on hostile input', () => {
    const hostile = [
      '"', '""', '"""', '*', '**', 'foo*bar', 'AND (', 'OR', 'NOT', 'NEAR(a b)', 'NEAR', 'a AND', '(', ')', '{', '}', ':',
      'title:checkout', '-checkout', '^start', 'col : x', "' OR 1=1 --", '\\', '\u0000', '\uD800', '🙂', '日本語 検索', 'a'.repeat(5000),
      Array.from({ length: 500 }, (_, i) => `w${i}`).join(' '), 'checkout"', '"checkout', 'x"y"z', '* AND * OR *', 'zh*', 'zp', 'zhcodex',
      'head:checkout', 'tags:zh', '{tags}: x', 'rowid', 'memory_fts',
    ];
    for (const q of hostile) {
      expect(() => s.search({ query: q }), q).not.toThrow();
      expect(() => s.search({ query: q, file: q, project: q }), q).not.toThrow();
    }
    expect(s.search({ query: '"checkout' }).results.length).toBeGreaterThan(0);
    // Operators are plain words.
    expect(sessionsOf(s.search({ query: 'checkout AND (' }))).toEqual(['a1']);
    expect(s.search({ query: 'NEAR(' }).results).toEqual([]);
  });

  it('keeps filter tags out of reach of user words', () => {
    expect(s.search({ query: 'zh*' }).results).toEqual([]);
    expect(s.search({ query: 'zhcodex' }).results).toEqual([]);
  });

  it('bounds snippets', () => {
    s.ingest([prompt(`${'lorem ipsum '.repeat(3000)} needle ${'dolor sit '.repeat(3000)}`, { cwd: A, sessionId: 'big' })]);
    const [hit] = evidence(s.search({ query: 'needle' }));
    expect(hit.snippet.startsWith('…')).toBe(true);
    expect(hit.title.length).toBeLessThanOrEqual(200);
    expect(hit.snippet).toContain('**needle**');
    expect(hit.snippet.length).toBeLessThanOrEqual(300);
  });
});
