/**
 * Real captured host sessions (test/fixtures/hosts) replicated to any size, for the import
 * benchmark: Claude Code and Codex logs as the hosts wrote them, with their metadata per line,
 * whole-file reads and tool output. Each copy is a session of its own (fresh session id), and
 * inside it the captured turn repeats with fresh ids and later timestamps, so nothing dedupes.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FIXTURES = new URL('../test/fixtures/hosts/', import.meta.url).pathname;
const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TOOL_ID_RE = /"((?:toolu|call|fc|msg)_[a-z0-9]{6,})"/g;
const STAMP_RE = /20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g;
/** Turns of the captured session per replicated session. */
const REPEATS = 20;

interface HostLog { host: 'claude-code' | 'codex'; sessionId: string; lines: string[]; head: number; file: (home: string, id: string) => string }

const fixtureLines = (host: string, pick: (f: string) => boolean): string[] => {
  const dir = join(FIXTURES, host, 'sessions');
  return readFileSync(join(dir, readdirSync(dir).find(pick)!), 'utf8').split('\n').filter(Boolean);
};

function hostLogs(): HostLog[] {
  return [
    {
      host: 'claude-code', sessionId: '3a198a8b-7eab-4cb5-a69e-e6477faacf11', head: 0,
      lines: fixtureLines('claude-code', (f) => f.endsWith('.jsonl')),
      file: (home, id) => join(home, '.claude', 'projects', '-home-dev-projects-demo', `${id}.jsonl`),
    },
    {
      host: 'codex', sessionId: '01a22c17-4ed4-7561-9d59-b934c4f76f3a', head: 1,
      lines: fixtureLines('codex', (f) => f.startsWith('rollout-')),
      file: (home, id) => join(home, '.codex', 'sessions', '2026', '11', '30', `rollout-2026-11-30T10-54-14-${id}.jsonl`),
    },
  ];
}

const freshUuid = (seed: string): string => {
  const h = createHash('md5').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
};

/** One line of copy `copy`, turn `turn`: ids made fresh (the session's per copy), stamps moved on. */
function remap(line: string, log: HostLog, copy: number, turn: number): string {
  const shiftMs = (copy * REPEATS + turn) * 60_000;
  return line
    .replace(UUID_RE, (u) => freshUuid(u === log.sessionId ? `${copy}:${u}` : `${copy}:${turn}:${u}`))
    .replace(TOOL_ID_RE, (_m, id: string) => `"${id}_${copy}_${turn}"`)
    .replace(STAMP_RE, (s) => new Date(Date.parse(s) + shiftMs).toISOString());
}

/** Writes about `mb` MB of replicated Claude Code and Codex sessions under `home`; returns the bytes. */
export function seedHostLogs(home: string, mb: number): number {
  const logs = hostLogs();
  let bytes = 0;
  for (let copy = 0; bytes < mb * 1e6; copy++) {
    for (const log of logs) {
      const out: string[] = log.lines.slice(0, log.head).map((l) => remap(l, log, copy, 0));
      for (let turn = 0; turn < REPEATS; turn++) for (const l of log.lines.slice(log.head)) out.push(remap(l, log, copy, turn));
      const text = out.join('\n') + '\n';
      const path = log.file(home, freshUuid(`${copy}:${log.sessionId}`));
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, text);
      bytes += Buffer.byteLength(text);
    }
  }
  return bytes;
}
