/**
 * Each host's captured session, put where the host keeps its logs under a temp HOME, with what
 * an import of it must store (the ids are the host's own, from the same capture's hooks/events).
 */
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { HostId } from '../../src/shared/hosts.js';
import { FIXTURES } from '../helpers/temp.js';

export interface HostCase {
  host: HostId;
  schema: string;
  /** Copies the fixture session(s) into `home`; returns the paths written. */
  place(home: string): string[];
  sessionId: string;
  prompt: string;
  /** The host's own prompt/turn id, where it has one. */
  promptId?: string;
  toolUseIds: string[];
  outcome: string;
  cwd: string;
}

const CWD = '/home/dev/projects/demo';

function put(from: string, to: string): string {
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
  return to;
}

const fixture = (host: string, ...rel: string[]) => join(FIXTURES, host, 'sessions', ...rel);
const only = (host: string, test: (f: string) => boolean) => readdirSync(fixture(host)).find(test)!;

export const HOST_CASES: HostCase[] = [
  {
    host: 'claude-code',
    schema: 'claude-code',
    place: (home) => [put(fixture('claude-code', '3a198a8b-7eab-4cb5-a69e-e6477faacf11.jsonl'),
      join(home, '.claude', 'projects', '-home-dev-projects-demo', '3a198a8b-7eab-4cb5-a69e-e6477faacf11.jsonl'))],
    sessionId: '3a198a8b-7eab-4cb5-a69e-e6477faacf11',
    prompt: 'say hello using bash',
    promptId: '64162777-60c7-4933-a462-396be60bfee1',
    toolUseIds: ['toolu_gmwiv4i6td'],
    outcome: 'All done.',
    cwd: CWD,
  },
  {
    host: 'codex',
    schema: 'codex',
    place: (home) => {
      const name = only('codex', (f) => f.startsWith('rollout-'));
      return [put(fixture('codex', name), join(home, '.codex', 'sessions', '2026', '11', '30', name))];
    },
    sessionId: '01a22c17-4ed4-7561-9d59-b934c4f76f3a',
    prompt: 'say hello using the shell',
    promptId: '01a22c17-4f6a-7341-be49-284462e907a7',
    toolUseIds: ['call_qjosbisoer'],
    outcome: 'All done.',
    cwd: CWD,
  },
];

HOST_CASES.push({
  host: 'gemini',
  schema: 'gemini',
  place: (home) => {
    const name = only('gemini-cli', (f) => f.endsWith('.jsonl'));
    const root = join(home, '.gemini', 'tmp', 'demo');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [CWD]: 'demo' } }));
    return [put(fixture('gemini-cli', name), join(root, 'chats', name))];
  },
  sessionId: 'cb86408f-c3e4-47f5-b0bd-b6c762ed585e',
  prompt: 'say hello using the shell',
  promptId: '776696a3-cf2e-4f5e-bf17-c66fabc31bb4',
  toolUseIds: ['run_shell_command__run_shell_command_1796036127526_0'],
  outcome: 'All done.',
  cwd: CWD,
});

HOST_CASES.push({
  host: 'copilot',
  schema: 'copilot',
  place: (home) => [put(fixture('copilot-cli', '988f3697-e22e-45f2-954a-2f8ffde54791', 'events.jsonl'),
    join(home, '.copilot', 'session-state', '988f3697-e22e-45f2-954a-2f8ffde54791', 'events.jsonl'))],
  sessionId: '988f3697-e22e-45f2-954a-2f8ffde54791',
  prompt: 'say hello using bash',
  promptId: '040cfb42-91e4-4b96-bf2e-6fae5a04146d',
  toolUseIds: ['call_slag1os5jy'],
  outcome: 'All done.',
  cwd: CWD,
});

HOST_CASES.push({
  host: 'pi',
  schema: 'pi',
  place: (home) => {
    const name = only('pi', (f) => f.endsWith('.jsonl'));
    return [put(fixture('pi', name), join(home, '.pi', 'agent', 'sessions', '--home-dev-projects-demo--', name))];
  },
  sessionId: '01a22c17-fd4e-740e-9726-113d76eab436',
  prompt: 'say hello using bash',
  promptId: '3f42da9d',
  toolUseIds: ['call_5lyu0qmkqd'],
  outcome: 'All done.',
  cwd: CWD,
});

// OMP writes Pi's tree format (no captured OMP log): Pi's session, where OMP keeps its own.
HOST_CASES.push({
  ...HOST_CASES.find((c) => c.host === 'pi')!,
  host: 'omp',
  schema: 'omp',
  place: (home) => {
    const name = only('pi', (f) => f.endsWith('.jsonl'));
    return [put(fixture('pi', name), join(home, '.omp', 'agent', 'sessions', '--home-dev-projects-demo--', name))];
  },
});

/** A host's SQLite store rebuilt from the captured rows (`sessions/sqlite/<table>.jsonl`), in WAL mode as the host keeps it. */
export function sqliteFromRows(dbPath: string, rowsDir: string, tables: readonly string[]): string {
  mkdirSync(dirname(dbPath), { recursive: true });
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  for (const table of tables) {
    const rows = readFileSync(join(rowsDir, `${table}.jsonl`), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    db.exec(`CREATE TABLE "${table}" (${cols.map((c) => `"${c}"`).join(', ')})`);
    const ins = db.prepare(`INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
    for (const r of rows) {
      ins.run(...cols.map((c) => {
        const v = r[c];
        if (v === undefined || v === null) return null;
        if (typeof v === 'object') return JSON.stringify(v);
        if (typeof v === 'boolean') return v ? 1 : 0;
        return v as string | number;
      }));
    }
  }
  db.close();
  return dbPath;
}

HOST_CASES.push({
  host: 'opencode',
  schema: 'opencode',
  place: (home) => [sqliteFromRows(join(home, '.local', 'share', 'opencode', 'opencode.db'), fixture('opencode', 'sqlite'), ['session', 'message', 'part'])],
  sessionId: 'ses_dd3e8333effexHg37dzll7XDI0',
  prompt: '"say hello using bash"',
  promptId: 'msg_22c17cde8001s4kXE5Yz3qspom',
  toolUseIds: ['call_mlfkrvshh9'],
  outcome: 'All done.',
  cwd: CWD,
});

HOST_CASES.push({
  host: 'openclaw',
  schema: 'openclaw',
  place: (home) => [sqliteFromRows(join(home, '.openclaw', 'agents', 'main', 'agent', 'openclaw-agent.sqlite'), fixture('openclaw', 'sqlite'), ['transcript_events', 'session_nodes'])],
  sessionId: '2ca8660e-5720-4ac4-93f3-2618843d13aa',
  prompt: 'say hello using bash',
  promptId: '97381ac0-a4bb-47f9-9540-2953a495ae2b',
  toolUseIds: ['call_thr5po8piz'],
  outcome: 'All done.',
  cwd: CWD,
});

HOST_CASES.push({
  host: 'grok',
  schema: 'grok-build',
  place: (home) => {
    const dir = join(home, '.grok', 'sessions', '%2Fhome%2Fdev%2Fprojects%2Fdemo', '01a232f0-7f40-70a0-86fa-278d4e1f0343');
    put(fixture('grok-build', 'summary.json'), join(dir, 'summary.json'));
    put(fixture('grok-build', 'chat_history.jsonl'), join(dir, 'chat_history.jsonl'));
    return [put(fixture('grok-build', 'updates.jsonl'), join(dir, 'updates.jsonl'))];
  },
  sessionId: '01a232f0-7f40-70a0-86fa-278d4e1f0343',
  prompt: 'say hello using bash',
  promptId: '9ddb3522-12a7-4f82-a49c-5d7c878dc700',
  toolUseIds: ['call_sag408g9iv'],
  outcome: 'All done.',
  cwd: CWD,
});

HOST_CASES.push({
  host: 'kimi',
  schema: 'kimi',
  place: (home) => {
    const dir = join(home, '.kimi-code', 'sessions', 'wd_demo_b5d9bd27fb6a', 'session_9645a1f8-f1bc-4488-ac24-51f2eca09e4b');
    put(fixture('kimi-code', 'state.json'), join(dir, 'state.json'));
    put(fixture('kimi-code', 'session_index.jsonl'), join(home, '.kimi-code', 'session_index.jsonl'));
    return [put(fixture('kimi-code', 'agents', 'main', 'wire.jsonl'), join(dir, 'agents', 'main', 'wire.jsonl'))];
  },
  sessionId: 'session_9645a1f8-f1bc-4488-ac24-51f2eca09e4b',
  prompt: 'say hello using bash',
  promptId: '0',
  toolUseIds: ['call_sr1i3ibzwv'],
  outcome: 'All done.',
  cwd: CWD,
});
