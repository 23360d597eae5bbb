/**
 * The captured host sessions (test/fixtures/hosts/<host>/hooks and sessions) as extra material:
 * their hook payloads replayed through `claude-mem hook <host> <event>` exactly as captured, with
 * /home/dev remapped to the scratch HOME, and a few questions about them. They all live in one
 * small project (demo), so their questions are reported apart from the headline figures.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getAdapter } from '../../src/hook/adapters/index.js';
import { canonicalEvent } from '../../src/hook/adapters/common.js';
import type { HookHostId } from '../../src/shared/hosts.js';
import type { FixtureReplay, Question } from './types.js';

/** Fixture folder → `claude-mem hook` host argument, and the hook folder the installer's events match. */
const HOSTS: { dir: string; host: HookHostId; hooks: string }[] = [
  { dir: 'claude-code', host: 'claude-code', hooks: 'hooks' },
  { dir: 'codex', host: 'codex', hooks: 'hooks' },
  { dir: 'gemini-cli', host: 'gemini', hooks: 'hooks' },
  { dir: 'grok-build', host: 'grok', hooks: 'hooks' },
  { dir: 'kimi-code', host: 'kimi', hooks: 'hooks' },
  { dir: 'copilot-cli', host: 'copilot', hooks: 'hooks-camel' },
];

export const FIXTURE_PROJECT = 'demo';

/** The repository root, found from this file's place (bench/recall) or from dist/. */
export function repoRoot(): string {
  for (const up of ['../..', '..']) {
    const dir = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(join(dir, 'test', 'fixtures', 'hosts'))) return dir;
  }
  return process.cwd();
}

const remap = (text: string, home: string): string => text.split('/home/dev').join(home);

function stringsOf(v: unknown, out: string[]): void {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) stringsOf(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) stringsOf(x, out);
}

function sessionIdOf(payload: Record<string, unknown>): string | undefined {
  const id = payload.session_id ?? payload.sessionId;
  return typeof id === 'string' ? id : undefined;
}

/** Transcripts the hooks point at, where the fixture holds them: Claude Code and Codex. */
function transcriptFiles(dir: string, firstPayload: Record<string, unknown>, home: string): { path: string; content: string }[] {
  const tp = firstPayload.transcript_path;
  if (typeof tp !== 'string') return [];
  const name = tp.split('/').pop() ?? '';
  const file = join(dir, 'sessions', name);
  if (!name || !existsSync(file)) return [];
  return [{ path: remap(tp, home).slice(home.length + 1), content: remap(readFileSync(file, 'utf8'), home) }];
}

export async function loadFixtures(home: string): Promise<FixtureReplay[]> {
  const root = join(repoRoot(), 'test', 'fixtures', 'hosts');
  const out: FixtureReplay[] = [];
  for (const h of HOSTS) {
    const dir = join(root, h.dir);
    const hookDir = join(dir, h.hooks);
    if (!existsSync(hookDir)) continue;
    const handled = new Set((await getAdapter(h.host)).events.map(canonicalEvent));
    const calls: FixtureReplay['calls'] = [];
    const texts: string[] = [];
    let first: Record<string, unknown> | undefined;
    for (const f of readdirSync(hookDir).filter((n) => /^\d+-.+\.json$/.test(n) && !n.endsWith('.env.json')).sort()) {
      const event = f.replace(/^\d+-/, '').replace(/\.json$/, '');
      if (!handled.has(canonicalEvent(event))) continue;
      const raw = readFileSync(join(hookDir, f), 'utf8');
      const payload = JSON.parse(raw) as Record<string, unknown>;
      first ??= payload;
      const envFile = join(hookDir, f.replace(/\.json$/, '.env.json'));
      const env = existsSync(envFile) ? (JSON.parse(remap(readFileSync(envFile, 'utf8'), home)) as Record<string, string>) : {};
      calls.push({ event, payload: remap(raw, home), env });
      stringsOf(payload, texts);
    }
    const sessionId = first && sessionIdOf(first);
    if (!first || !sessionId) continue;
    out.push({ host: h.dir, hostArg: h.host, project: FIXTURE_PROJECT, sessionId, calls, files: transcriptFiles(dir, first, home), text: texts.join('\n') });
  }
  return out;
}

/** Questions a developer could ask about the captured sessions, labelled from their content. */
export function fixtureQuestions(fixtures: FixtureReplay[]): Question[] {
  const saying = (needle: string) => fixtures.filter((f) => f.text.includes(needle)).map((f) => f.sessionId);
  const qs: Question[] = [
    { id: 'fixtures/hello-bash', asked: 'when did I ask an agent to say hello using bash?', keywords: 'say hello bash', style: 'literal', answers: saying('say hello using bash'), project: FIXTURE_PROJECT },
    { id: 'fixtures/hello-shell', asked: 'which session greeted me through the shell?', keywords: 'hello shell', style: 'paraphrased', answers: saying('say hello using the shell'), project: FIXTURE_PROJECT },
    { id: 'fixtures/echo', asked: 'where did we run echo hello-from-mock?', keywords: 'echo hello-from-mock', style: 'literal', answers: saying('hello-from-mock'), project: FIXTURE_PROJECT },
    { id: 'fixtures/greeting-command', asked: 'what command printed the greeting in the scratch project?', keywords: 'greeting command demo', style: 'paraphrased', answers: saying('hello-from-mock'), project: FIXTURE_PROJECT },
  ];
  return qs.filter((q) => q.answers.length > 0);
}
