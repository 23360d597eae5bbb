/**
 * Privacy runs in the hook, before the spool or the worker: the bytes of secrets and `<private>`
 * spans never appear in any file of the data directory (spool, database, WAL, logs).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, tempHome } from '../helpers/temp.js';
import { claudePayload, cleanupWorker, countRows, ensureBuilt, hookEnv, NO_AUTOSTART, runHook, startWorker, stopWorker, waitFor } from './helpers.js';

const SECRETS = {
  anthropic: 'sk-ant-api03-Zq8SECRETBODYabc123XYZ987',
  aws: 'AKIAQWERTYUIOPASDFGH',
  github: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  urlPassword: 'hunter2-pass-7f3k',
  pem: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCPRIVATEKEYBODY',
};
const PRIVATE = ['my-private-diary-4471', 'tool-private-9921', 'whole-turn-secret-5512'];
/** Output of a tool call made in a fully private turn: that turn's tool events are dropped by the store. */
const PRIVATE_TURN_OUTPUT = 'private-turn-tool-output-3390';
/** Control: a public word next to the secrets must arrive, so the search below cannot pass vacuously. */
const PUBLIC = 'public-marker-8080';

/** Every byte of every file under dir. */
function allBytes(dir: string): string {
  let out = '';
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    out += st.isDirectory() ? allBytes(p) : readFileSync(p).toString('latin1');
  }
  return out;
}

function hooks(session: string, cwd: string): [string, string][] {
  const prompt = (id: string, text: string) =>
    JSON.stringify(claudePayload('003-UserPromptSubmit.json', { session_id: session, cwd, prompt_id: id, prompt: text }));
  const tool = (id: string, stdout: string, command = 'env') =>
    JSON.stringify(claudePayload('005-PostToolUse.json', {
      session_id: session, cwd, tool_use_id: id, tool_input: { command }, tool_response: { stdout, stderr: '' },
    }));
  return [
    ['UserPromptSubmit', prompt('p1', `${PUBLIC} deploy with ${SECRETS.anthropic} and <private>${PRIVATE[0]}</private> now`)],
    ['PostToolUse', tool('toolu_1', [
      `${PUBLIC} AWS_ACCESS_KEY_ID=${SECRETS.aws}`,
      `token ${SECRETS.github}`,
      `db postgres://admin:${SECRETS.urlPassword}@db.internal:5432/app`,
      `-----BEGIN PRIVATE KEY-----\n${SECRETS.pem}\n-----END PRIVATE KEY-----`,
      `<private>${PRIVATE[1]}</private>`,
    ].join('\n'))],
    ['UserPromptSubmit', prompt('p2', `<private>${PRIVATE[2]}</private>`)],
    ['PostToolUse', tool('toolu_2', PRIVATE_TURN_OUTPUT, 'cat notes.txt')],
  ];
}

const forbidden = [...Object.values(SECRETS), ...PRIVATE];

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

beforeAll(() => ensureBuilt(), 180_000);

describe('privacy before anything is written', () => {
  it('keeps secrets and <private> text out of the spool, the database and the logs', async () => {
    const h = tempHome();
    const env = hookEnv(h.env);
    cleanups.push(() => cleanupWorker(env, h.dataDir));
    const cwd = tempDir('project');

    // Worker down: everything goes to the spool.
    for (const [event, payload] of hooks('sess-private-spool', cwd)) {
      expect((await runHook(hookEnv(h.env, NO_AUTOSTART), 'claude-code', event, payload, cwd)).code).toBe(0);
    }
    const spooled = allBytes(join(h.dataDir, 'spool'));
    expect(spooled).toContain(PUBLIC);
    for (const s of forbidden) expect(spooled, `spool holds ${s}`).not.toContain(s);

    // Worker up: the spool is drained, and the same hooks go straight to the worker.
    startWorker(env);
    for (const [event, payload] of hooks('sess-private-live', cwd)) {
      expect((await runHook(env, 'claude-code', event, payload, cwd)).code).toBe(0);
    }
    const prompts = (session: string) =>
      countRows(h.dataDir, 'SELECT count(*) AS n FROM prompts p JOIN sessions s ON s.id = p.session_id WHERE s.host_session_id = ?', session);
    await waitFor(() => prompts('sess-private-spool') >= 1 && prompts('sess-private-live') >= 1, 20_000);
    await new Promise((r) => setTimeout(r, 500));
    stopWorker(env);

    const everything = allBytes(h.dataDir);
    expect(everything).toContain(PUBLIC);
    for (const s of [...forbidden, PRIVATE_TURN_OUTPUT]) expect(everything, `data dir holds ${s}`).not.toContain(s);
  }, 90_000);
});
