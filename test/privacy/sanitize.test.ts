import { describe, expect, it } from 'vitest';
import { MAX_FIELD_CHARS, TRUNCATION_MARKER, type CaptureEvent } from '../../src/shared/capture-event.js';
import { sanitizeEvent, sanitizeValue } from '../../src/shared/privacy.js';

const R = '[REDACTED]';
const GH = `ghp_${'aB3dE5fG7h'.repeat(4)}`;

function ev(over: Partial<CaptureEvent>): CaptureEvent {
  return {
    host: 'claude-code', source: 'hook', kind: 'tool_result', sessionId: 's1', cwd: '/home/dev/projects/demo',
    at: '2026-01-01T00:00:00.000Z', ...over,
  };
}

describe('sanitizeValue', () => {
  it('walks objects and arrays deeply', () => {
    const v = { a: [{ b: { c: `token ${GH}` } }, 'x <private>p</private> y'], n: 3, t: true, z: null };
    expect(sanitizeValue(v)).toEqual({ a: [{ b: { c: `token ${R}` } }, 'x  y'], n: 3, t: true, z: null });
  });

  it('redacts values under secret-named keys wholesale', () => {
    const v = { headers: { Authorization: 'Bearer short', 'x-api-key': 'plainword' }, apiKey: 'abc', password: 'hunter2',
      token: '$GITHUB_TOKEN', max_tokens: 100, primaryKey: 'id', name: 'demo' };
    expect(sanitizeValue(v)).toEqual({ headers: { Authorization: R, 'x-api-key': R }, apiKey: R, password: R,
      token: '$GITHUB_TOKEN', max_tokens: 100, primaryKey: 'id', name: 'demo' });
  });

  it('does not mutate its input', () => {
    const v = { apiKey: 'abc', list: [`${GH}`] };
    const copy = structuredClone(v);
    sanitizeValue(v);
    expect(v).toEqual(copy);
  });

  it('bounds depth: deeper levels are kept as sanitized JSON text', () => {
    let deep: unknown = { secret_leaf: `k ${GH}` };
    for (let i = 0; i < 40; i++) deep = { next: deep };
    const json = JSON.stringify(sanitizeValue(deep));
    expect(json).not.toContain(GH);
    expect(json).toContain(R);
  });

  it('survives cycles', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    expect(() => sanitizeValue(a)).not.toThrow();
  });

  it('truncates oversize strings with the marker and bounds huge arrays', () => {
    const out = sanitizeValue({ s: 'x'.repeat(MAX_FIELD_CHARS * 3), arr: Array.from({ length: 5000 }, (_, i) => i) }) as {
      s: string; arr: unknown[];
    };
    expect(out.s.length).toBe(MAX_FIELD_CHARS);
    expect(out.s.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(out.arr.length).toBe(2001);
    expect(String(out.arr[2000])).toContain('3000 more items');
  });
});

describe('sanitizeEvent', () => {
  it('redacts every free-text field and keeps paths and ids', () => {
    const e = ev({
      kind: 'tool_result', toolName: 'Bash', toolUseId: 'toolu_1', filePath: '/home/dev/projects/demo/.env',
      toolInput: { command: `curl -H "Authorization: Bearer ${GH}" https://api.github.com` },
      toolResponse: { stdout: 'DB_PASSWORD=hunter2\nok', stderr: '' },
      message: `m ${GH}`, title: `t ${GH}`,
      edits: [{ oldText: 'API_KEY=old1', newText: 'API_KEY=new2' }],
    });
    const out = sanitizeEvent(e)!;
    expect(out.filePath).toBe('/home/dev/projects/demo/.env');
    expect(out.toolUseId).toBe('toolu_1');
    expect(JSON.stringify(out)).not.toContain(GH);
    expect((out.toolResponse as { stdout: string }).stdout).toBe(`DB_PASSWORD=${R}\nok`);
    expect(out.edits).toEqual([{ oldText: `API_KEY=${R}`, newText: `API_KEY=${R}` }]);
    expect(e.message).toBe(`m ${GH}`); // input untouched
  });

  it('a fully private prompt loses its text and marks the turn private', () => {
    const out = sanitizeEvent(ev({ kind: 'prompt', prompt: '<private>my medical history</private>', promptId: 'p1' }))!;
    expect(out).not.toBeNull();
    expect(out.prompt).toBeUndefined();
    expect('prompt' in out).toBe(false);
    expect(out.privateTurn).toBe(true);
    expect(out.promptId).toBe('p1');
  });

  it('a partly private prompt keeps the public part, not marked private', () => {
    const out = sanitizeEvent(ev({ kind: 'prompt', prompt: 'fix login <private>pw is hunter2</private> please' }))!;
    expect(out.prompt).toBe('fix login  please');
    expect(out.privateTurn).toBeUndefined();
  });

  it('an unclosed private tag in a prompt hides the rest', () => {
    expect(sanitizeEvent(ev({ kind: 'prompt', prompt: 'do x <private> and the secret part' }))!.prompt).toBe('do x');
  });

  it('drops an entirely private assistant message, keeps a partly private one', () => {
    expect(sanitizeEvent(ev({ kind: 'assistant_message', message: '<private>secret answer</private>' }))).toBeNull();
    expect(sanitizeEvent(ev({ kind: 'assistant_message', message: 'done <private>x</private>' }))!.message).toBe('done');
  });

  it('drops a tool event whose whole text was private, keeps partly private ones', () => {
    expect(sanitizeEvent(ev({ toolName: 'Bash', toolInput: { command: '<private>cat diary.txt</private>' },
      toolResponse: { stdout: '<private>dear diary</private>', stderr: '', interrupted: false } }))).toBeNull();
    const kept = sanitizeEvent(ev({ toolName: 'Bash', toolInput: { command: 'cat notes.md' },
      toolResponse: { stdout: 'public <private>hidden</private>' } }))!;
    expect(kept.toolInput).toEqual({ command: 'cat notes.md' });
    expect(kept.toolResponse).toEqual({ stdout: 'public' });
  });

  it('drops a fully private observation and file edit', () => {
    expect(sanitizeEvent(ev({ kind: 'observation', title: '<private>t</private>', message: '<private>m</private>' }))).toBeNull();
    expect(sanitizeEvent(ev({ kind: 'file_edit', filePath: '/x/a.ts', edits: [{ newText: '<private>k</private>' }] }))).toBeNull();
  });

  it('never drops structural events', () => {
    for (const kind of ['session_start', 'session_end', 'compact'] as const) {
      expect(sanitizeEvent(ev({ kind, reason: '<private>x</private>' }))).not.toBeNull();
    }
  });

  it('events without private content pass through with equal shape', () => {
    const e = ev({ toolName: 'Read', toolInput: { file_path: '/a/b.ts' }, toolResponse: { file: { content: 'x' } } });
    expect(sanitizeEvent(e)).toEqual(e);
  });

  it('truncates oversize prompt and message with the marker', () => {
    const out = sanitizeEvent(ev({ kind: 'prompt', prompt: 'p'.repeat(MAX_FIELD_CHARS + 10) }))!;
    expect(out.prompt!.length).toBe(MAX_FIELD_CHARS);
    expect(out.prompt!.endsWith(TRUNCATION_MARKER)).toBe(true);
    const msg = sanitizeEvent(ev({ kind: 'assistant_message', message: 'm'.repeat(10 * MAX_FIELD_CHARS) }))!;
    expect(msg.message!.endsWith(TRUNCATION_MARKER)).toBe(true);
  });

  it('is idempotent: the hook and the worker may both apply it', () => {
    const events = [
      ev({ kind: 'prompt', prompt: 'a <private>b</private> c API_KEY=k1 <private>open' }),
      ev({ kind: 'prompt', prompt: '<private>all</private>' }),
      ev({ toolName: 'Bash', toolInput: { command: `echo ${GH}`, token: 'x' }, toolResponse: 'p'.repeat(MAX_FIELD_CHARS + 5) }),
    ];
    for (const e of events) {
      const once = sanitizeEvent(e)!;
      expect(sanitizeEvent(once)).toEqual(once);
    }
  });

  it('processes a 1 MB tool response quickly', () => {
    const big = `${'log line with path/to/file.ts and sha 3f786850e387550fdab836ed7e6dc881de23001b\n'.repeat(13_000)}`;
    const t = Date.now();
    const out = sanitizeEvent(ev({ toolName: 'Bash', toolInput: { command: 'make' }, toolResponse: { stdout: big } }))!;
    expect(Date.now() - t).toBeLessThan(10_000);
    expect((out.toolResponse as { stdout: string }).stdout.endsWith(TRUNCATION_MARKER)).toBe(true);
  });
});
