import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historySources, ingestHistoryLog } from '../../src/worker/transcripts/history.js';
import { mergeUpdates } from '../../src/worker/transcripts/readers/grok-updates.js';
import { tempDir } from '../helpers/temp.js';
import { rows, testStore } from './helpers.js';
import { HOST_CASES } from './history-hosts.js';

const envOf = (home: string) => ({ HOME: home });
const source = (schema: string) => historySources().find((s) => s.schema === schema)!;

async function importHome(schema: string, home: string) {
  const store = testStore();
  const results = [];
  for (const log of await source(schema).findLogs(envOf(home))) results.push(await ingestHistoryLog({ store, source: source(schema), log }));
  const r = rows(store.dbPath);
  const cwds = new Set(r.events.map((e) => (e.payload as { cwd?: string }).cwd));
  store.close();
  return { results, rows: r, cwds };
}

describe('Grok Build update stream', () => {
  const chunk = (kind: string, text: string, promptId?: string) => JSON.stringify({
    method: 'session/update',
    params: { sessionId: 's1', update: { sessionUpdate: kind, content: { type: 'text', text } }, _meta: promptId ? { promptId } : {} },
  });

  it('joins a run of streamed chunks into one message and gives the user message its turn id', () => {
    const out = mergeUpdates([
      chunk('user_message_chunk', 'say '), chunk('user_message_chunk', 'hello'),
      chunk('agent_message_chunk', 'All ', 't1'), chunk('agent_message_chunk', 'done.', 't1'),
      '{broken', chunk('agent_message_chunk', 'Next turn', 't2'),
    ]);
    expect(out).toHaveLength(4);
    const [user, answer, broken, next] = out as Array<Record<string, any>>;
    expect(user.params.update.content.text).toBe('say hello');
    expect(user.params._meta.promptId).toBe('t1');
    expect(answer.params.update.content.text).toBe('All done.');
    expect(broken).toBe('{broken');
    expect(next.params.update.content.text).toBe('Next turn');
  });
});

describe('Gemini chat recordings', () => {
  const gemini = HOST_CASES.find((c) => c.host === 'gemini')!;

  it('without a project registry, takes the working directory from the session context Gemini wrote', async () => {
    const home = tempDir('home');
    gemini.place(home);
    rmSync(join(home, '.gemini', 'projects.json'));
    const { results, rows: r, cwds } = await importHome('gemini', home);
    expect(results[0]).toMatchObject({ status: 'done', deadLetters: 0 });
    expect(r.prompts.map((p) => p.text)).toEqual([gemini.prompt]);
    expect(cwds).toEqual(new Set([gemini.cwd]));
  });

  it('reads the older one-document format (messages[]) into the same rows', async () => {
    const home = tempDir('home');
    const [file] = gemini.place(home);
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const header = lines[0];
    const messages = lines.filter((l) => typeof l.type === 'string');
    rmSync(file);
    writeFileSync(file.replace(/\.jsonl$/, '.json'), JSON.stringify({ ...header, messages }, null, 2));
    const { results, rows: r } = await importHome('gemini', home);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ status: 'done', deadLetters: 0 });
    expect(r.prompts).toEqual([{ session: gemini.sessionId, nativeId: gemini.promptId, text: gemini.prompt }]);
    expect(r.observations.map((o) => o.toolUseId)).toEqual(gemini.toolUseIds);
  });

  it('a JSON document that does not parse is reported as failed, not stuck', async () => {
    const home = tempDir('home');
    const [file] = gemini.place(home);
    rmSync(file);
    writeFileSync(file.replace(/\.jsonl$/, '.json'), '{"sessionId": "x", "messages": [');
    const { results } = await importHome('gemini', home);
    expect(results).toEqual([expect.objectContaining({ status: 'failed', error: expect.stringMatching(/cannot read/) })]);
  });
});
