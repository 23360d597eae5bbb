/**
 * Each host's captured session, put where the host keeps its logs under a temp HOME, with what
 * an import of it must store (the ids are the host's own, from the same capture's hooks/events).
 */
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
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
