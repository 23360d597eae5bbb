import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';
import { drain, FIXTURE_DIR, rows, shipped, testStore } from './helpers.js';

/** Copies a fixture into a temp dir (same relative path) so nothing reads the repo copy twice. */
function copy(rel: string): string {
  const dir = tempDir('fx');
  cpSync(join(FIXTURE_DIR, rel), join(dir, rel), { recursive: true });
  return join(dir, rel);
}

async function load(rel: string, schema: string) {
  const store = testStore();
  const r = await drain(store, { path: copy(rel), schema: shipped(schema) });
  const got = rows(store.dbPath);
  const letters = store.listDeadLetters();
  store.close();
  return { r, got, letters };
}

const DSH = 'dsh/--home-dev-projects-demo--/dsh-sess-1';

describe('dsh schema (hand-made DeepSeek Harness logs)', () => {
  it('reads the plain log: real prompts per turn, tools paired, plugin context and mem_* tools left out', async () => {
    const { r, got, letters } = await load(`${DSH}/session.jsonl`, 'dsh');
    expect(r).toMatchObject({ status: 'idle', compressed: false, deadLetters: 0 });
    expect(letters).toEqual([]);
    expect(got.sessions).toEqual([expect.objectContaining({ host: 'dsh', id: 'dsh-sess-1', isSubagent: 0 })]);
    // The same text in two turns is two prompts, told apart by the host's turn numbers.
    expect(got.prompts).toEqual([
      { session: 'dsh-sess-1', nativeId: '1', text: 'list the files and read README.md' },
      { session: 'dsh-sess-1', nativeId: '2', text: 'list the files and read README.md' },
    ]);
    expect(got.observations.map((o) => [o.toolUseId, o.toolName])).toEqual([['call_1', 'Bash'], ['call_3', 'Read'], ['call_4', 'Bash']]);
    const all = JSON.stringify(got.events);
    expect(all).not.toContain('mem_search');
    expect(all).not.toContain('<file-changes>');
    const failed = got.events.find((e) => e.key.endsWith('call_4') && e.kind === 'tool_result')?.payload as { toolFailed?: boolean };
    expect(failed?.toolFailed).toBe(true);
    const assistant = got.events.filter((e) => e.kind === 'assistant_message').map((e) => (e.payload as { message: string }).message);
    expect(assistant).toEqual(expect.arrayContaining(['Let me look.', 'The README says Demo.']));
  });

  it('reads the zstd log (concatenated frames) to the same rows', async () => {
    const plain = await load(`${DSH}/session.jsonl`, 'dsh');
    const z = await load(`${DSH}/session.jsonl.zstd`, 'dsh');
    expect(z.r).toMatchObject({ status: 'idle', compressed: true, deadLetters: 0 });
    // Hash keys cover the transcript path, so compare the stored content itself.
    const content = (g: typeof plain.got) => g.events.map((e) => JSON.stringify({ kind: e.kind, payload: { ...(e.payload as object), transcriptPath: undefined } })).sort();
    expect(content(z.got)).toEqual(content(plain.got));
    expect(z.got.prompts).toEqual(plain.got.prompts);
    expect(z.got.observations).toEqual(plain.got.observations);
  });

  it('reads a line split across frames (and skips skippable frames)', async () => {
    const { r, got } = await load('dsh/split-frames.jsonl.zstd', 'dsh');
    expect(r).toMatchObject({ status: 'idle', compressed: true, deadLetters: 0 });
    expect(got.prompts.map((p) => p.text)).toEqual(['list the files and read README.md']);
    expect(got.observations.map((o) => o.toolUseId)).toEqual(['call_1']);
  });
});

const GROK = 'grok/%2Fhome%2Fdev%2Fprojects%2Fdemo/grok-sess-1/chat_history.jsonl';

describe('grok-bot schema (hand-made agent transcripts)', () => {
  it('takes session and cwd from the path, records prompts and tool_use blocks, skips mem_* tools', async () => {
    const { r, got } = await load(GROK, 'grok-bot');
    expect(r).toMatchObject({ status: 'idle', deadLetters: 0 });
    expect(got.sessions).toEqual([expect.objectContaining({ host: 'grok', id: 'grok-sess-1' })]);
    expect(got.prompts.map((p) => p.text)).toEqual(['what is in package.json?', 'thanks']);
    expect(got.observations.map((o) => [o.toolUseId, o.toolName])).toEqual([['tc_3', 'Bash'], ['tu_1', 'Read']]);
    const ev = got.events.find((e) => e.kind === 'prompt')!.payload as { cwd: string };
    expect(ev.cwd).toBe('/home/dev/projects/demo');
    expect(JSON.stringify(got.events)).not.toContain('mem_search');
    expect(JSON.stringify(got.events)).not.toContain('You are Grok');
  });

  it('reads the same transcript zstd-compressed', async () => {
    const plain = await load(GROK, 'grok-bot');
    const z = await load('grok-zstd/%2Fhome%2Fdev%2Fprojects%2Fdemo/grok-sess-1/chat_history.jsonl', 'grok-bot');
    expect(z.r.compressed).toBe(true);
    expect(z.got.prompts).toEqual(plain.got.prompts);
    expect(z.got.observations).toEqual(plain.got.observations);
  });
});
