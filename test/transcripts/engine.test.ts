import { describe, expect, it } from 'vitest';
import { compileSchema, fileInfo, toIso, type FileState } from '../../src/transcripts/engine.js';
import { compileField } from '../../src/transcripts/fields.js';
import { compilePath, readPath } from '../../src/transcripts/json-path.js';
import { compileMatch } from '../../src/transcripts/match.js';
import type { MatchRule, TranscriptSchema } from '../../src/transcripts/types.js';

const file = fileInfo('/home/u/.grok/sessions/%2Fhome%2Fu%2Fproj/sess-1/chat_history.jsonl');
const scope = (record: unknown, ctx: Record<string, unknown> = {}) => ({ record, ctx, file });
const m = (rule: MatchRule, record: unknown) => compileMatch(rule)(scope(record));

describe('paths', () => {
  const rec = { a: { b: [{ c: 1 }, { c: 2 }, { d: 3 }] }, 'odd.key': 'x', list: ['p', 'q'] };
  it('reads dotted, indexed, negative, quoted, $-rooted and wildcard paths', () => {
    expect(readPath(compilePath('a.b[1].c'), scope(rec))).toBe(2);
    expect(readPath(compilePath('$.a.b[0].c'), scope(rec))).toBe(1);
    expect(readPath(compilePath('list[-1]'), scope(rec))).toBe('q');
    expect(readPath(compilePath('["odd.key"]'), scope(rec))).toBe('x');
    expect(readPath(compilePath('a.b[*].c'), scope(rec))).toEqual([1, 2]);
    expect(readPath(compilePath('a.missing.deep'), scope(rec))).toBeUndefined();
    expect(readPath(compilePath('$ctx.turn'), scope(rec, { turn: 't1' }))).toBe('t1');
    expect(readPath(compilePath('$file.parts[-2]'), scope(rec))).toBe('sess-1');
    expect(readPath(compilePath('$file.name'), scope(rec))).toBe('chat_history.jsonl');
  });
  it('rejects malformed paths', () => {
    expect(() => compilePath('a..b')).toThrow(/empty segment/);
    expect(() => compilePath('a[1')).toThrow(/unclosed/);
    expect(() => compilePath('a[x]')).toThrow(/bad index/);
    expect(() => compilePath('')).toThrow(/empty/);
  });
});

describe('match operators', () => {
  const rec = { type: 'msg', n: 0, role: 'user', text: 'hello world', tags: ['a', 'b'], obj: { k: 1 }, blocks: [{ t: 'x' }, { t: 'y' }] };
  it('equals / not_equals (primitives and objects; a missing value is "not equal")', () => {
    expect(m({ path: 'type', equals: 'msg' }, rec)).toBe(true);
    expect(m({ path: 'n', equals: 0 }, rec)).toBe(true);
    expect(m({ path: 'obj', equals: { k: 1 } }, rec)).toBe(true);
    expect(m({ path: 'type', equals: 'other' }, rec)).toBe(false);
    expect(m({ path: 'type', not_equals: 'other' }, rec)).toBe(true);
    expect(m({ path: 'missing', not_equals: 'x' }, rec)).toBe(true);
    expect(m({ path: 'type', not_equals: 'msg' }, rec)).toBe(false);
  });
  it('in / not_in', () => {
    expect(m({ path: 'role', in: ['user', 'assistant'] }, rec)).toBe(true);
    expect(m({ path: 'role', in: ['tool'] }, rec)).toBe(false);
    expect(m({ path: 'obj', in: [{ k: 1 }] }, rec)).toBe(true);
    expect(m({ path: 'role', not_in: ['tool'] }, rec)).toBe(true);
    expect(m({ path: 'role', not_in: ['user'] }, rec)).toBe(false);
  });
  it('exists', () => {
    expect(m({ path: 'text', exists: true }, rec)).toBe(true);
    expect(m({ path: 'nope', exists: true }, rec)).toBe(false);
    expect(m({ path: 'nope', exists: false }, rec)).toBe(true);
    expect(m({ path: 'n', exists: true }, rec)).toBe(true);
  });
  it('starts_with / not_starts_with (one prefix or several)', () => {
    expect(m({ path: 'text', starts_with: 'hello' }, rec)).toBe(true);
    expect(m({ path: 'text', starts_with: ['x', 'hell'] }, rec)).toBe(true);
    expect(m({ path: 'text', starts_with: 'world' }, rec)).toBe(false);
    expect(m({ path: 'text', not_starts_with: ['x', 'y'] }, rec)).toBe(true);
    expect(m({ path: 'text', not_starts_with: 'hello' }, rec)).toBe(false);
    expect(m({ path: 'n', starts_with: '0' }, rec)).toBe(false); // only strings start with anything
  });
  it('contains (substring, array element)', () => {
    expect(m({ path: 'text', contains: 'lo wo' }, rec)).toBe(true);
    expect(m({ path: 'tags', contains: 'b' }, rec)).toBe(true);
    expect(m({ path: 'tags', contains: 'c' }, rec)).toBe(false);
  });
  it('regex (with flags)', () => {
    expect(m({ path: 'text', regex: '^hel+o\\s' }, rec)).toBe(true);
    expect(m({ path: 'text', regex: '^HELLO', flags: 'i' }, rec)).toBe(true);
    expect(m({ path: 'text', regex: '^HELLO' }, rec)).toBe(false);
    expect(m({ path: 'n', regex: '0' }, rec)).toBe(false);
  });
  it('wildcard paths: positive operators hold if any element does, negative ones if none does', () => {
    expect(m({ path: 'blocks[*].t', equals: 'y' }, rec)).toBe(true);
    expect(m({ path: 'blocks[*].t', not_equals: 'y' }, rec)).toBe(false);
    expect(m({ path: 'blocks[*].t', not_in: ['z'] }, rec)).toBe(true);
  });
  it('all / any / not nest to any depth', () => {
    const rule: MatchRule = {
      all: [
        { path: 'type', equals: 'msg' },
        { any: [{ path: 'role', equals: 'tool' }, { all: [{ path: 'role', equals: 'user' }, { not: { any: [{ path: 'text', contains: 'bye' }, { path: 'n', equals: 1 }] } }] }] },
      ],
    };
    expect(m(rule, rec)).toBe(true);
    expect(m(rule, { ...rec, text: 'bye now' })).toBe(false);
    expect(m(rule, { ...rec, role: 'tool', text: 'bye' })).toBe(true);
    expect(m({ any: [{ path: 'x', exists: true }, { path: 'y', exists: true }] }, rec)).toBe(false);
  });
});

describe('field specs', () => {
  const rec = { a: '', b: null, c: [], d: 'value', n: 5, args: '{"cmd":"ls"}', parts: [{ text: 'one' }, { text: 'two' }], enc: '%2Ftmp%2Fx' };
  const f = (spec: Parameters<typeof compileField>[0], ctx: Record<string, unknown> = {}) => compileField(spec)(scope(rec, ctx));
  it('path strings, $.-prefixed paths and the $ctx / $file roots', () => {
    expect(f('d')).toBe('value');
    expect(f('$.n')).toBe(5);
    expect(f('$ctx.promptId', { promptId: 'p1' })).toBe('p1');
    expect(f({ path: '$file.parts[-3]', decode: 'uri' })).toBe('/home/u/proj');
  });
  it('coalesce takes the first non-empty value (empty string, null and [] are empty)', () => {
    expect(f({ coalesce: ['a', 'b', 'c', 'missing', 'd', 'n'] })).toBe('value');
    expect(f({ coalesce: ['a', { value: 'fallback' }] })).toBe('fallback');
    expect(f({ coalesce: ['a', 'b'] })).toBeUndefined();
  });
  it('value, path with default, parse json, join, decode uri', () => {
    expect(f({ value: { fixed: true } })).toEqual({ fixed: true });
    expect(f({ path: 'missing', default: 'dflt' })).toBe('dflt');
    expect(f({ path: 'a', default: 'dflt' })).toBe('dflt');
    expect(f({ path: 'd', default: 'dflt' })).toBe('value');
    expect(f({ path: 'args', parse: 'json' })).toEqual({ cmd: 'ls' });
    expect(f({ path: 'd', parse: 'json' })).toBe('value'); // not JSON: kept as is
    expect(f({ path: 'parts[*].text', join: ' + ' })).toBe('one + two');
    expect(f({ path: 'enc', decode: 'uri' })).toBe('/tmp/x');
  });
});

/** One schema exercising all nine actions. */
const ALL_ACTIONS: TranscriptSchema = {
  host: 'dsh',
  session: { cwd: { value: '/work/proj' } },
  tools: { sh: { name: 'Bash', rename: { cmd: 'command' } }, patch: { name: 'ApplyPatch', wrap: 'input' } },
  ignoreTools: ['^mem_'],
  events: [
    { match: { path: 't', equals: 'start' }, action: 'session_init', fields: { sessionId: 'id', at: 'ts', reason: 'why', model: 'model' } },
    { match: { path: 't', equals: 'turn' }, action: 'session_context', fields: { promptId: 'turn', cwd: 'cwd' } },
    { match: { path: 't', equals: 'turn_end' }, action: 'session_context', fields: { promptId: { value: null } } },
    { match: { path: 't', equals: 'user' }, action: 'user_message', fields: { prompt: 'text', at: 'ts' } },
    { match: { path: 't', equals: 'assistant' }, action: 'assistant_message', fields: { message: { path: 'blocks[*].text', join: '\n' } } },
    { match: { all: [{ path: 't', equals: 'assistant' }, { path: '$item.type', equals: 'call' }] }, each: 'blocks', action: 'tool_use', fields: { toolUseId: '$item.id', toolName: '$item.name', toolInput: { path: '$item.args', parse: 'json' } } },
    { match: { path: 't', equals: 'result' }, action: 'tool_result', fields: { toolUseId: 'id', toolResponse: 'out', toolFailed: 'err' } },
    { match: { path: 't', equals: 'note' }, action: 'observation', fields: { title: 'title', message: 'body' } },
    { match: { path: 't', equals: 'edit' }, action: 'file_edit', fields: { filePath: 'file', oldText: 'old', newText: 'new' } },
    { match: { path: 't', equals: 'end' }, action: 'session_end', fields: { reason: 'why' } },
  ],
};

function run(schema: TranscriptSchema, records: unknown[], state: FileState = { context: {}, pending: {} }, opts = {}) {
  const s = compileSchema('test', schema);
  const outs = records.map((r) => s.evaluate(r, state, file, opts));
  return { events: outs.flatMap((o) => o.events), errors: outs.map((o) => o.error).filter(Boolean), state };
}

describe('the nine actions', () => {
  const records = [
    { t: 'start', id: 'S1', ts: 1_700_000_000_000, why: 'startup', model: 'm1' },
    { t: 'turn', turn: 7 },
    { t: 'user', text: 'fix the bug', ts: '2024-01-01T00:00:00Z' },
    { t: 'assistant', blocks: [{ type: 'text', text: 'on it' }, { type: 'call', id: 'c1', name: 'sh', args: '{"cmd":"make"}' }, { type: 'call', id: 'c2', name: 'mem_search', args: '{}' }, { type: 'call', id: 'c3', name: 'patch', args: '"*** Begin Patch"' }] },
    { t: 'result', id: 'c1', out: 'ok', err: false },
    { t: 'result', id: 'c2', out: 'memories' },
    { t: 'result', id: 'c3', out: 'applied', err: true },
    { t: 'note', title: 'Decided X', body: 'because Y' },
    { t: 'edit', file: '/work/proj/a.ts', old: 'a', new: 'b' },
    { t: 'turn_end' },
    { t: 'end', why: 'exit' },
    { t: 'unrelated' },
  ];
  const { events, errors, state } = run(ALL_ACTIONS, records);

  it('produce the same CaptureEvents hooks do', () => {
    expect(errors).toEqual([]);
    expect(events.map((e) => e.kind)).toEqual(['session_start', 'prompt', 'assistant_message', 'tool_use', 'tool_use', 'tool_result', 'tool_result', 'observation', 'file_edit', 'session_end']);
    for (const e of events) expect(e).toMatchObject({ host: 'dsh', source: 'transcript', sessionId: 'S1', cwd: '/work/proj', transcriptPath: file.path, model: 'm1' });
    expect(events[0]).toMatchObject({ reason: 'startup', at: '2023-11-14T22:13:20.000Z' });
    expect(events[1]).toMatchObject({ prompt: 'fix the bug', promptId: '7', at: '2024-01-01T00:00:00.000Z' });
    expect(events[2]).toMatchObject({ message: 'on it', promptId: '7' });
  });
  it('normalise tool names and inputs, pair results with their calls, and skip ignored tools', () => {
    const [use1, use3] = events.filter((e) => e.kind === 'tool_use');
    expect(use1).toMatchObject({ toolUseId: 'c1', toolName: 'Bash', rawToolName: 'sh', toolInput: { command: 'make' } });
    expect(use3).toMatchObject({ toolUseId: 'c3', toolName: 'ApplyPatch', toolInput: { input: '*** Begin Patch' } });
    const [r1, r3] = events.filter((e) => e.kind === 'tool_result');
    expect(r1).toMatchObject({ toolUseId: 'c1', toolName: 'Bash', toolInput: { command: 'make' }, toolResponse: 'ok', promptId: '7' });
    expect(r1.toolFailed).toBeUndefined();
    expect(r3).toMatchObject({ toolUseId: 'c3', toolFailed: true });
    expect(JSON.stringify(events)).not.toContain('mem_search');
    expect(state.pending).toEqual({});
  });
  it('carry observation, file edit and session end fields; the turn ends with turn_end', () => {
    expect(events[7]).toMatchObject({ kind: 'observation', title: 'Decided X', message: 'because Y' });
    expect(events[8]).toMatchObject({ kind: 'file_edit', filePath: '/work/proj/a.ts', edits: [{ oldText: 'a', newText: 'b' }] });
    expect(events[9]).toMatchObject({ kind: 'session_end', reason: 'exit' });
    expect(events[9].promptId).toBeUndefined();
  });
  it('reports a record it cannot attribute to a session instead of guessing', () => {
    const r = run(ALL_ACTIONS, [{ t: 'user', text: 'orphan' }]);
    expect(r.events).toEqual([]);
    expect(r.errors[0]).toMatch(/no session id/);
    const bad = run(ALL_ACTIONS, [{ t: 'start', id: 'bad id with spaces' }, { t: 'user', text: 'x' }]);
    expect(bad.errors[0]).toMatch(/invalid session id/);
  });
  it('keeps context only when asked (used to learn the session of a file read from its end)', () => {
    const s = compileSchema('test', ALL_ACTIONS);
    const state: FileState = { context: {}, pending: {} };
    expect(s.evaluate(records[0], state, file, { contextOnly: true }).events).toEqual([]);
    expect(state.context.sessionId).toBe('S1');
    expect(s.evaluate(records[2], state, file).events[0]).toMatchObject({ kind: 'prompt', sessionId: 'S1' });
  });
  it('records nothing but context for a non-subagent session of a subagentOnly watch', () => {
    const schema: TranscriptSchema = { ...ALL_ACTIONS, events: [{ match: { path: 't', equals: 'start' }, action: 'session_init', fields: { sessionId: 'id', subagent: 'spawn' } }, ...ALL_ACTIONS.events.slice(1)] };
    const top = run(schema, [{ t: 'start', id: 'TOP' }, { t: 'user', text: 'hi' }], undefined, { subagentOnly: true });
    expect(top.events).toEqual([]);
    expect(top.state.context).toMatchObject({ sessionId: 'TOP', isSubagent: false });
    const sub = run(schema, [{ t: 'start', id: 'SUB', spawn: { parent: 'TOP' } }, { t: 'user', text: 'hi' }], undefined, { subagentOnly: true });
    expect(sub.events.map((e) => e.kind)).toEqual(['session_start', 'prompt']);
    expect(sub.events[1]).toMatchObject({ isSubagent: true });
    // The marker counts only on the first record.
    const late = run(schema, [{ t: 'user', text: 'x' }, { t: 'start', id: 'L', spawn: { parent: 'TOP' } }], { context: { sessionId: 'L' }, pending: {} }, { subagentOnly: true });
    expect(late.events).toEqual([]);
  });
});

describe('time', () => {
  it('accepts ISO strings, epoch seconds and epoch milliseconds', () => {
    expect(toIso('2026-11-30T10:54:15.002Z')).toBe('2026-11-30T10:54:15.002Z');
    expect(toIso(1796036054)).toBe(new Date(1796036054 * 1000).toISOString());
    expect(toIso(1796036055363)).toBe(new Date(1796036055363).toISOString());
    expect(toIso('not a date')).toBeUndefined();
  });
  it('gives records without a time a stable, ordered time from the file and line number', () => {
    const schema: TranscriptSchema = { host: 'grok', session: { sessionId: { value: 'S' }, cwd: { value: '/p' } }, events: [{ match: { path: 'role', equals: 'user' }, action: 'user_message', fields: { prompt: 'content' } }] };
    const state = { context: { fileAt: '2026-01-01T00:00:00.000Z' }, pending: {} };
    const { events } = run(schema, [{ role: 'user', content: 'same' }, { role: 'user', content: 'same' }], state);
    expect(events.map((e) => e.at)).toEqual(['2026-01-01T00:00:00.001Z', '2026-01-01T00:00:00.002Z']);
  });
});

describe('rule index', () => {
  it('finds rules by their discriminating field without changing results', () => {
    const s = compileSchema('test', ALL_ACTIONS);
    const state: FileState = { context: { sessionId: 'S', cwd: '/p' }, pending: {} };
    expect(s.evaluate({ t: 'note', title: 'x' }, state, file).events).toHaveLength(1);
    expect(s.evaluate({ t: 'nothing' }, state, file).events).toHaveLength(0);
    expect(s.evaluate({ x: 1 }, state, file).events).toHaveLength(0);
  });
});

