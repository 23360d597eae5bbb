import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../src/worker/store/sqlite-store.js';
import { at, bash, ev, openTemp, prompt } from './fixtures.js';

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

const titles = (hits: { title: string }[]) => hits.map((h) => h.title);

describe('search', () => {
  it('matches every word, not only the exact phrase', () => {
    const hits = s.search({ query: 'checkout faster' });
    expect(hits.map((h) => h.kind).sort()).toEqual(['prompt', 'summary']);
    expect(s.search({ query: 'faster checkout' })).toHaveLength(2);
    expect(s.search({ query: '"faster checkout"' })).toEqual([]);
    expect(s.search({ query: '"checkout page faster"' }).map((h) => h.kind).sort()).toEqual(['prompt', 'summary']);
    expect(s.search({ query: '"page checkout"' })).toEqual([]);
  });

  it('requires all words (AND)', () => {
    expect(s.search({ query: 'checkout hugo' })).toEqual([]);
  });

  it('supports prefixes', () => {
    expect(titles(s.search({ query: 'webp*' }))).toEqual(['Ran `npm run build`']);
    expect(s.search({ query: 'webp' })).toEqual([]);
    expect(s.search({ query: 'stripe*', type: 'read' })).toHaveLength(1);
  });

  it('returns hits with ids, kind, host, project, session, snippet and ranking', () => {
    const [hit] = s.search({ query: 'webpack' });
    expect(hit).toMatchObject({
      kind: 'observation', type: 'command', host: 'claude-code', project: A, hostSessionId: 'a1', createdAt: at(11),
    });
    expect(hit.id).toBeGreaterThan(0);
    expect(hit.snippet).toContain('**webpack**');
    expect(hit.score).toBeLessThan(0);
    expect(s.getObservations([hit.id])[0].title).toBe(hit.title);
  });

  it('filters by project, host and type', () => {
    expect(s.search({ query: '', project: B }).every((h) => h.project === B)).toBe(true);
    expect(s.search({ query: '', project: B })).toHaveLength(4);
    expect(s.search({ query: 'posts', host: 'codex' }).length).toBeGreaterThan(0);
    expect(s.search({ query: 'posts', host: 'claude-code' })).toEqual([]);
    expect(s.search({ query: 'checkout', project: B })).toEqual([]);
    expect(s.search({ query: '', type: 'edit' }).map((h) => h.type)).toEqual(['edit', 'edit']);
    expect(s.search({ query: 'checkout', type: 'prompt' }).map((h) => h.kind)).toEqual(['prompt']);
    expect(s.search({ query: 'checkout', type: 'summary' }).map((h) => h.kind)).toEqual(['summary']);
    expect(s.search({ query: 'retry', type: 'edit', host: 'claude-code', project: A })).toHaveLength(1);
    expect(s.search({ query: 'retry', type: 'command' })).toEqual([]);
  });

  it('filters by date and time, inclusive', () => {
    const day0 = at(0).slice(0, 10);
    const day3 = at(3600 * 24 * 3).slice(0, 10);
    expect(s.search({ query: '', until: day0 }).every((h) => h.project === A)).toBe(true);
    expect(s.search({ query: '', since: day3 }).every((h) => h.project === B)).toBe(true);
    expect(s.search({ query: '', since: day3 })).toHaveLength(4);
    expect(s.search({ query: 'checkout', since: at(11), until: at(11) }).map((h) => h.createdAt)).toEqual([at(11)]);
    expect(s.search({ query: '', since: at(12), until: at(13) })).toHaveLength(2);
    expect(() => s.search({ query: '', since: 'last tuesday' })).toThrow(expect.objectContaining({ code: 'invalid_input' }));
  });

  it('filters by file: exact, suffix at a path boundary, or absolute path', () => {
    expect(titles(s.search({ query: '', file: 'refund.ts' }))).toHaveLength(1);
    expect(s.search({ query: '', file: 'payment/refund.ts' })).toHaveLength(1);
    expect(s.search({ query: '', file: `${A}/src/payment/refund.ts` })).toHaveLength(1);
    expect(s.search({ query: '', file: 'fund.ts' })).toEqual([]);
    expect(s.search({ query: '', file: 'stripe_client.ts' })[0].type).toBe('read');
    expect(s.search({ query: 'retry', file: 'refund.ts' })).toHaveLength(1);
    expect(s.search({ query: 'hugo', file: 'refund.ts' })).toEqual([]);
    expect(s.search({ query: '', file: 'posts/fts.md', project: B })).toHaveLength(1);
  });

  it('returns the most recent first for an empty query, with limit and offset', () => {
    const all = s.search({ query: '' });
    expect(all.length).toBeGreaterThanOrEqual(9);
    const times = all.map((h) => h.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(s.search({ query: '', limit: 3 })).toEqual(all.slice(0, 3));
    expect(s.search({ query: '', limit: 3, offset: 3 })).toEqual(all.slice(3, 6));
    expect(s.search({ query: '', limit: 100_000 }).length).toBe(all.length);
    expect(s.search({ query: '', limit: 0 })).toHaveLength(1);
  });

  it('folds case and accents', () => {
    expect(s.search({ query: 'CAFE' })).toHaveLength(1);
    expect(s.search({ query: 'resume' })).toHaveLength(1);
    expect(s.search({ query: 'façade' })).toHaveLength(1);
  });

  it('never throws on hostile input', () => {
    const hostile = [
      '"', '""', '"""', '*', '**', 'foo*bar', 'AND (', 'OR', 'NOT', 'NEAR(a b)', 'NEAR', 'a AND', '(', ')', '{', '}', ':',
      'title:checkout', '-checkout', '^start', 'col : x', "' OR 1=1 --", '\\', '\u0000', '\uD800', '🙂', '日本語 検索', 'a'.repeat(5000),
      Array.from({ length: 500 }, (_, i) => `w${i}`).join(' '), 'checkout"', '"checkout', 'x"y"z', '* AND * OR *', 'zh*', 'zp', 'zhcodex',
    ];
    for (const q of hostile) {
      expect(() => s.search({ query: q }), q).not.toThrow();
      expect(() => s.search({ query: q, file: q, project: q }), q).not.toThrow();
    }
    expect(s.search({ query: '"checkout' }).length).toBeGreaterThan(0);
    // Operators are plain words: "checkout AND (" looks for "checkout" and "and".
    expect(s.search({ query: 'checkout AND (' })).toEqual([]);
    expect(s.search({ query: 'checkout (' }).length).toBeGreaterThan(0);
    expect(s.search({ query: 'about NEAR(' })).toEqual([]);
    expect(s.search({ query: 'sqlite OR' })).toEqual([]);
  });

  it('keeps filter tags out of reach of user words', () => {
    expect(s.search({ query: 'zh*' })).toEqual([]);
    expect(s.search({ query: 'zhcodex' })).toEqual([]);
  });

  it('bounds snippets', () => {
    s.ingest([prompt(`${'lorem ipsum '.repeat(3000)} needle ${'dolor sit '.repeat(3000)}`, { cwd: A, sessionId: 'big' })]);
    const [hit] = s.search({ query: 'needle' });
    expect(hit.snippet.startsWith('…')).toBe(true);
    expect(hit.title.length).toBeLessThanOrEqual(200);
    expect(hit.snippet).toContain('**needle**');
    expect(hit.snippet.length).toBeLessThanOrEqual(300);
  });
});
