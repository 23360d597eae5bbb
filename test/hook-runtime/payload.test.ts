/** Reading and parsing the host's stdin: deadlines, size cap, truncated JSON kept and marked. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { TRUNCATION_MARKER } from '../../src/shared/capture-event.js';
import { parsePayload, recoverTailIds, repairTruncatedJson } from '../../src/hook/payload.js';
import { readStdin } from '../../src/hook/stdin.js';

const asStdin = (s: PassThrough) => s as unknown as NodeJS.ReadStream;

describe('readStdin', () => {
  it('reads everything until the end', async () => {
    const s = new PassThrough();
    const p = readStdin({ deadlineMs: 1000, maxBytes: 1024, stream: asStdin(s) });
    s.write('{"a":');
    s.end('1}');
    expect(await p).toEqual({ text: '{"a":1}', truncated: false, timedOut: false });
  });

  it('stops at the deadline when the writer never closes', async () => {
    const s = new PassThrough();
    const started = Date.now();
    const p = readStdin({ deadlineMs: 100, maxBytes: 1024, stream: asStdin(s) });
    s.write('{"partial":');
    const r = await p;
    expect(r).toMatchObject({ text: '{"partial":', timedOut: true });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(s.destroyed).toBe(true);
  });

  it('keeps the head and a tail of an input over the cap', async () => {
    const s = new PassThrough();
    const p = readStdin({ deadlineMs: 1000, maxBytes: 10, stream: asStdin(s) });
    s.write('0123456789ABCDEF');
    s.end('-the-end');
    const r = await p;
    expect(r.text).toBe('0123456789');
    expect(r.truncated).toBe(true);
    expect(r.tail).toBe('ABCDEF-the-end');
  });

  it('does not wait on a terminal', async () => {
    const s = new PassThrough() as unknown as NodeJS.ReadStream & { isTTY: boolean };
    s.isTTY = true;
    expect(await readStdin({ deadlineMs: 5000, maxBytes: 10, stream: s })).toEqual({ text: '', truncated: false, timedOut: false });
  });
});

describe('parsePayload', () => {
  it('returns objects only', () => {
    expect(parsePayload('{"a":1}', false)).toEqual({ a: 1 });
    expect(parsePayload('\ufeff{"a":1}', false)).toEqual({ a: 1 });
    for (const bad of ['', '   ', '[1]', 'null', '"x"', '{bad', '42']) expect(parsePayload(bad, false)).toBeUndefined();
  });

  it('does not repair JSON that was not cut by the cap', () => {
    expect(parsePayload('{"a":"unterminated', false)).toBeUndefined();
  });

  it('closes a string value cut short and marks it', () => {
    const v = repairTruncatedJson('{"session_id":"s1","tool_response":{"stdout":"hello wor') as Record<string, { stdout: string }>;
    expect(v.session_id).toBe('s1');
    expect(v.tool_response.stdout).toBe(`hello wor${TRUNCATION_MARKER}`);
  });

  it('drops a partial escape at the cut', () => {
    const a = repairTruncatedJson('{"x":"ab\\') as { x: string };
    expect(a.x).toBe(`ab${TRUNCATION_MARKER}`);
    const b = repairTruncatedJson('{"x":"ab\\u00') as { x: string };
    expect(b.x).toBe(`ab${TRUNCATION_MARKER}`);
  });

  it('falls back to the last complete value when cut in a key, a number or after a colon', () => {
    expect(repairTruncatedJson('{"a":"x","b')).toEqual({ a: 'x' });
    expect(repairTruncatedJson('{"a":"x","b":')).toEqual({ a: 'x' });
    expect(repairTruncatedJson('{"a":[1,2],"n":12')).toEqual({ a: [1, 2] });
    expect(repairTruncatedJson('{"a":{"b":[true,')).toEqual({ a: { b: [true] } });
    expect(repairTruncatedJson('{')).toEqual({});
    expect(repairTruncatedJson('garbage')).toBeUndefined();
  });

  it('reads ids that came after the cut from the tail', () => {
    const obj: Record<string, unknown> = { session_id: 's', tool_response: 'x…' };
    recoverTailIds(obj, 'xxxx"},"tool_use_id":"toolu_9","duration_ms":5,"session_id":"other","note":"n"}');
    expect(obj).toEqual({ session_id: 's', tool_response: 'x…', tool_use_id: 'toolu_9' });
  });

  it('parses a payload cut at the cap end to end', () => {
    const full = JSON.stringify({ session_id: 's2', cwd: '/tmp', tool_response: { stdout: 'y'.repeat(500) }, tool_use_id: 'toolu_2' });
    const head = full.slice(0, 200);
    const tail = full.slice(-60);
    const p = parsePayload(head, true, tail) as Record<string, unknown>;
    expect(p).toMatchObject({ session_id: 's2', cwd: '/tmp', tool_use_id: 'toolu_2' });
    expect((p.tool_response as { stdout: string }).stdout.endsWith(TRUNCATION_MARKER)).toBe(true);
  });
});
