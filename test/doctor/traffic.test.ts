/**
 * doctor's checks from real traffic: the figures come from a real store (what sessions left),
 * the verdicts from src/npx-cli/doctor/traffic.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import type { HostId } from '../../src/shared/hosts.js';
import type { DoctorContext } from '../../src/npx-cli/doctor/context.js';
import { OPEN_SESSION_GRACE_MS, realTrafficChecks } from '../../src/npx-cli/doctor/traffic.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { bash, ev, openTemp, prompt } from '../store/fixtures.js';

const open: SqliteStore[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
});

/** A doctor context whose running worker reports this store's statistics. */
function ctxWith(events: CaptureEvent[], hosts: HostId[]): DoctorContext {
  const s = openTemp();
  open.push(s);
  s.ingest(events);
  return {
    hosts,
    paths: { logs: '/data/logs' },
    meta: () => ({ capture: 'hooks' }),
    worker: async () => ({ state: 'running', stats: { store: s.stats() } }),
    store: async () => ({ store: s }),
  } as unknown as DoctorContext;
}

/** `n` sessions of `host` made of what `each` returns for session i. */
function sessions(host: HostId, n: number, each: (sessionId: string) => CaptureEvent[]): CaptureEvent[] {
  return Array.from({ length: n }, (_, i) => each(`${host}-s${i}`)).flat().map((e) => ({ ...e, host }));
}

// The fixtures' clock starts in 2025: "now" is long after, so every session is settled.
const NOW = Date.parse('2025-03-02T10:00:00.000Z');
const check = async (events: CaptureEvent[], host: HostId, now = NOW) => (await realTrafficChecks(ctxWith(events, [host]), now))[0];

describe('doctor real-traffic checks', () => {
  it('ok, with the last prompt, tool result and session end, for sessions that are complete', async () => {
    const c = await check(sessions('claude-code', 4, (sessionId) => [
      ev({ kind: 'session_start', sessionId }), prompt('do it', { sessionId }), bash('ls', 'a', { sessionId }), ev({ kind: 'session_end', sessionId }),
    ]), 'claude-code');
    expect(c).toMatchObject({ id: 'claude-code.real-traffic', area: 'capture', status: 'ok' });
    expect(c.evidence).toMatch(/last prompt .* ago, tool result .* ago, session end .* ago; of its 4 most recent session\(s\) 0 without a prompt/);
  });

  it('fails when real sessions arrive without prompts (Kimi Code before its prompts were read)', async () => {
    const c = await check(sessions('kimi', 3, (sessionId) => [ev({ kind: 'session_start', sessionId })]), 'kimi');
    expect(c.status).toBe('fail');
    expect(c.evidence).toMatch(/none of Kimi Code's 3 most recent real sessions has a prompt/);
    expect(c.fix).toMatch(/\/data\/logs\/hook\.log after one Kimi Code session started with CLAUDE_MEM_DEBUG=1/);
    expect(c.detail).toMatch(/last prompt never/);
  });

  it('fails when sessions with prompts never carry a tool result, not for a couple of chats', async () => {
    const chats = (n: number) => sessions('grok', n, (sessionId) => [prompt('hi', { sessionId }), ev({ kind: 'session_end', sessionId })]);
    expect((await check(chats(2), 'grok')).status).toBe('ok');
    const c = await check(chats(5), 'grok');
    expect(c.status).toBe('fail');
    expect(c.evidence).toMatch(/has a tool result although 5 have prompts/);
  });

  it('fails when sessions never end; a turn end counts as an end (Kimi Code under -p)', async () => {
    const open3 = (host: HostId, end?: CaptureEvent['kind']) => sessions(host, 3, (sessionId) => [
      prompt('p', { sessionId }), bash('ls', 'a', { sessionId }), ...(end ? [ev({ kind: end, sessionId })] : []),
    ]);
    const c = await check(open3('gemini'), 'gemini');
    expect(c.status).toBe('fail');
    expect(c.evidence).toMatch(/ever ended/);
    expect((await check(open3('kimi', 'turn_end'), 'kimi')).status).toBe('ok');
    // Sessions that may still be running are not held against the host.
    const fresh = Date.parse(ev({ kind: 'prompt' }).at) + OPEN_SESSION_GRACE_MS / 2;
    expect((await check(open3('gemini'), 'gemini', fresh)).status).toBe('ok');
  });

  it('does not flag hosts whose sessions legitimately never end, and says why', async () => {
    const c = await check(sessions('openclaw', 4, (sessionId) => [prompt('p', { sessionId }), bash('ls', 'a', { sessionId })]), 'openclaw');
    expect(c.status).toBe('ok');
    expect(c.evidence).toMatch(/--local/);
  });

  it('doctor probes do not count as traffic; a host never heard from is ok', async () => {
    const probes = sessions('codex', 3, (sessionId) => [ev({ kind: 'session_start', sessionId, probe: true })]);
    expect(await check(probes, 'codex')).toMatchObject({ status: 'ok', evidence: 'Codex CLI: no real session captured yet' });
  });
});
