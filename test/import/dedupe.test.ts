// One writer per event: hooks and an import of the same session's log store each prompt, tool
// call and answer once, in either order, and a second import stores nothing.
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookHostId } from '../../src/shared/hosts.js';
import { sanitizeEvent } from '../../src/shared/privacy.js';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import type { MemoryStore } from '../../src/store/types.js';
import { hookFixtures, runFixture } from '../hook-adapters/fixtures.js';
import { FIXTURES, tempDir } from '../helpers/temp.js';
import { drain, shipped, testStore } from '../transcripts/helpers.js';
import { counts } from './helpers.js';

function hookEvents(host: HookHostId, dir: string): CaptureEvent[] {
  return hookFixtures(join(dir, 'hooks')).flatMap((f) => runFixture(host, f).events)
    .map((e) => sanitizeEvent(e)).filter((e): e is CaptureEvent => e !== null);
}

async function importLog(store: MemoryStore, file: string, schema: string) {
  return drain(store, { path: file, watchName: `import:${schema}`, schema: shipped(schema) });
}

function copyLog(dir: string): string {
  const src = join(FIXTURES, 'codex', 'sessions');
  const name = readdirSync(src).find((f) => f.startsWith('rollout-'))!;
  const to = join(tempDir('codex'), '2026', '11', '30');
  mkdirSync(to, { recursive: true });
  copyFileSync(join(src, name), join(to, name));
  void dir;
  return join(to, name);
}

describe('codex: hooks and an imported rollout are one writer per event', () => {
  const TURN = '01a22c17-4f6a-7341-be49-284462e907a7';

  it('captured live, then imported twice: nothing stored twice', async () => {
    const store = testStore();
    const live = hookEvents('codex', 'codex');
    expect(live.some((e) => e.kind === 'prompt')).toBe(true);
    store.ingest(live);
    const before = counts(store.dbPath);
    expect(before).toMatchObject({ sessions: 1, prompts: 1, observations: 1, promptIds: [TURN] });
    const file = copyLog('');
    const first = await importLog(store, file, 'codex');
    expect(first.deadLetters).toBe(0);
    expect(counts(store.dbPath)).toMatchObject({ sessions: 1, prompts: 1, observations: 1, assistant: 1, promptIds: [TURN] });
    store.close();
  });

  it('imported, then the same session captured live: nothing stored twice', async () => {
    const store = testStore();
    const file = copyLog('');
    await importLog(store, file, 'codex');
    const imported = counts(store.dbPath);
    expect(imported).toMatchObject({ sessions: 1, prompts: 1, observations: 1, assistant: 1 });
    store.ingest(hookEvents('codex', 'codex'));
    expect(counts(store.dbPath)).toMatchObject({ sessions: 1, prompts: 1, observations: 1, assistant: 1, promptIds: [TURN] });
    store.close();
  });
});

describe('a session of several turns, captured live and then imported', () => {
  const base = { host: 'claude-code', sessionId: 'sess-multi', cwd: '/home/dev/projects/demo' } as const;
  const ev = (source: CaptureEvent['source'], kind: CaptureEvent['kind'], at: string, extra: Partial<CaptureEvent>): CaptureEvent =>
    ({ ...base, source, kind, at, ...extra }) as CaptureEvent;
  const turns = (source: CaptureEvent['source'], skew: number) => {
    const t = (s: number) => new Date(Date.UTC(2026, 10, 30, 10, 0, s + skew)).toISOString();
    return [
      ev(source, 'prompt', t(0), { promptId: 'p-1', prompt: 'first question' }),
      ev(source, 'tool_result', t(1), { promptId: 'p-1', toolUseId: 'tu-1', toolName: 'Bash', toolInput: { command: 'ls' }, toolResponse: 'a b' }),
      ev(source, 'assistant_message', t(2), { promptId: 'p-1', message: 'first answer' }),
      ev(source, 'prompt', t(10), { promptId: 'p-2', prompt: 'second question' }),
      ev(source, 'assistant_message', t(12), { promptId: 'p-2', message: 'second answer' }),
    ];
  };

  it('keeps each answer in its own turn, once', () => {
    const store = testStore();
    // Live capture sees only the turns' last answers, at hook time.
    store.ingest(turns('hook', 1));
    store.ingest(turns('transcript', 0));
    const db = new Database(store.dbPath, { readonly: true });
    const answers = db.prepare('SELECT prompt_number AS n, text FROM assistant_messages ORDER BY id').all();
    db.close();
    expect(answers).toEqual([{ n: 1, text: 'first answer' }, { n: 2, text: 'second answer' }]);
    expect(counts(store.dbPath)).toMatchObject({ prompts: 2, observations: 1 });
    store.close();
  });
});

describe('a host that gives no prompt id: the content rule of docs/capture.md', () => {
  const base = { host: 'gemini', sessionId: 'sess-noid', cwd: '/home/dev/projects/demo' } as const;
  const at = (s: number) => new Date(Date.UTC(2026, 10, 30, 10, 0, s)).toISOString();
  const prompt = (source: CaptureEvent['source'], s: number, text: string) => ({ ...base, source, kind: 'prompt', at: at(s), prompt: text }) as CaptureEvent;
  const answer = (source: CaptureEvent['source'], s: number, text: string) => ({ ...base, source, kind: 'assistant_message', at: at(s), message: text }) as CaptureEvent;
  const texts = (dbPath: string) => {
    const db = new Database(dbPath, { readonly: true });
    try { return db.prepare('SELECT text FROM prompts ORDER BY number').pluck().all(); } finally { db.close(); }
  };

  it('the hook capture and the log line of one prompt are one prompt, in either order', () => {
    for (const order of [['hook', 'transcript'], ['transcript', 'hook']] as const) {
      const store = testStore();
      store.ingest([prompt(order[0], 0, 'continue'), answer(order[0], 3, 'done')]);
      store.ingest([prompt(order[1], 2, 'continue'), answer(order[1], 4, 'done')]);
      // A redelivery of the second path's copy is still a duplicate.
      const again = store.ingest([prompt(order[1], 2, 'continue')]);
      expect(again).toMatchObject({ stored: 0, duplicates: 1 });
      expect(texts(store.dbPath)).toEqual(['continue']);
      expect(counts(store.dbPath).assistant).toBe(1);
      store.close();
    }
  });

  it('the same text typed twice stays two prompts, each matched to its own twin', () => {
    const store = testStore();
    store.ingest([prompt('hook', 0, 'continue')]);
    store.ingest([prompt('hook', 60, 'continue')]);
    store.ingest([prompt('transcript', 1, 'continue'), prompt('transcript', 61, 'continue')]);
    expect(texts(store.dbPath)).toEqual(['continue', 'continue']);
    store.close();
  });

  it('the same text far apart in time, or from one path twice, is not a twin', () => {
    const store = testStore();
    store.ingest([prompt('hook', 0, 'run the tests')]);
    store.ingest([prompt('hook', 10, 'run the tests')]);
    store.ingest([prompt('transcript', 3600, 'run the tests')]);
    expect(texts(store.dbPath)).toHaveLength(3);
    store.close();
  });
});

describe('a prompt id only the log carries (Copilot CLI, Gemini CLI): hooks give none', () => {
  const base = { host: 'copilot', sessionId: 'sess-logid', cwd: '/home/dev/projects/demo' } as const;
  const at = (s: number) => new Date(Date.UTC(2026, 10, 30, 10, 0, s)).toISOString();
  const turn = (source: CaptureEvent['source'], s: number, n: number, withId: boolean) => [
    { ...base, source, kind: 'prompt', at: at(s), prompt: `question ${n}`, ...(withId ? { promptId: `msg-${n}` } : {}) },
    { ...base, source, kind: 'assistant_message', at: at(s + 2), message: `answer ${n}`, ...(withId ? { promptId: `msg-${n}` } : {}) },
  ] as CaptureEvent[];

  it('live turns, then the log with its ids: one prompt and one answer per turn, in its turn', () => {
    const store = testStore();
    store.ingest([...turn('hook', 0, 1, false), ...turn('hook', 30, 2, false)]);
    store.ingest([...turn('transcript', 1, 1, true), ...turn('transcript', 31, 2, true)]);
    const db = new Database(store.dbPath, { readonly: true });
    const prompts = db.prepare('SELECT number, native_id AS id, text FROM prompts ORDER BY number').all();
    const answers = db.prepare('SELECT prompt_number AS n, text FROM assistant_messages ORDER BY id').all();
    db.close();
    expect(prompts).toEqual([{ number: 1, id: 'msg-1', text: 'question 1' }, { number: 2, id: 'msg-2', text: 'question 2' }]);
    expect(answers).toEqual([{ n: 1, text: 'answer 1' }, { n: 2, text: 'answer 2' }]);
    store.close();
  });

  it('the hook and the log of one turn in the same batch: one prompt', () => {
    const store = testStore();
    store.ingest([...turn('hook', 0, 1, false), ...turn('transcript', 1, 1, true)]);
    expect(counts(store.dbPath)).toMatchObject({ prompts: 1, assistant: 1, promptIds: ['msg-1'] });
    store.close();
  });

  it('the log first, then the hooks of the same turn: one prompt', () => {
    const store = testStore();
    store.ingest(turn('transcript', 1, 1, true));
    store.ingest(turn('hook', 0, 1, false));
    expect(counts(store.dbPath)).toMatchObject({ prompts: 1, assistant: 1, promptIds: ['msg-1'] });
    store.close();
  });
});

describe('a tool call id only the log carries (Copilot CLI, Gemini CLI hooks give none)', () => {
  const base = { host: 'copilot', sessionId: 'sess-toolid', cwd: '/home/dev/projects/demo', toolName: 'Bash' } as const;
  const at = (s: number) => new Date(Date.UTC(2026, 10, 30, 10, 0, s)).toISOString();
  const hook = (s: number, cmd: string) => ({ ...base, source: 'hook', kind: 'tool_result', at: at(s), toolInput: { command: cmd }, toolResponse: 'ok' }) as CaptureEvent;
  const log = (s: number, cmd: string, id: string) => [
    { ...base, source: 'transcript', kind: 'tool_use', at: at(s - 1), toolUseId: id, toolInput: { command: cmd } },
    { ...base, source: 'transcript', kind: 'tool_result', at: at(s), toolUseId: id, toolInput: { command: cmd }, toolResponse: 'ok' },
  ] as CaptureEvent[];

  it('live calls, then the log: each call once; a second import stores nothing', () => {
    const store = testStore();
    store.ingest([hook(10, 'echo a'), hook(40, 'echo b')]);
    store.ingest([...log(10, 'echo a', 'tc-1'), ...log(40, 'echo b', 'tc-2')]);
    store.ingest([...log(10, 'echo a', 'tc-1'), ...log(40, 'echo b', 'tc-2')]);
    expect(counts(store.dbPath).observations).toBe(2);
    store.close();
  });

  it('the hook and the log of one call in the same batch: the call once', () => {
    const store = testStore();
    store.ingest([hook(10, 'echo a'), ...log(10, 'echo a', 'tc-1')]);
    expect(counts(store.dbPath).observations).toBe(1);
    store.close();
  });

  it('the log first, then the hooks: each call once', () => {
    const store = testStore();
    store.ingest([...log(10, 'echo a', 'tc-1'), ...log(40, 'echo b', 'tc-2')]);
    store.ingest([hook(11, 'echo a'), hook(41, 'echo b')]);
    expect(counts(store.dbPath).observations).toBe(2);
    store.close();
  });
});
