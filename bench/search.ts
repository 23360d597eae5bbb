/** Search latency at a given number of observations, seeded through the real ingest path. */
import { join } from 'node:path';
import { openStore } from '../src/store/sqlite-store.js';
import type { CaptureEvent } from '../src/shared/capture-event.js';
import { benchHome, percentile, round } from './util.js';

export const WORDS = [
  'parser', 'router', 'migration', 'token', 'cache', 'schema', 'worker', 'socket', 'payload', 'render',
  'invoice', 'account', 'session', 'webhook', 'retry', 'queue', 'index', 'search', 'config', 'deploy',
  'docker', 'kernel', 'layout', 'button', 'refactor', 'timeout', 'memory', 'stream', 'upload', 'billing',
];
const FILES = ['src/app.ts', 'src/db/schema.ts', 'lib/router.go', 'api/handlers.py', 'web/Button.tsx', 'Cargo.toml'];

export function pick<T>(list: readonly T[], i: number): T {
  return list[i % list.length];
}

/** A deterministic pseudo-random mix of shell, read and edit events over several projects. */
export function seedEvent(i: number): CaptureEvent {
  const w1 = pick(WORDS, i * 7 + 3);
  const w2 = pick(WORDS, i * 13 + 5);
  const w3 = pick(WORDS, (i >> 3) * 17 + 11);
  const file = pick(FILES, i * 5);
  const base = {
    host: pick(['claude-code', 'codex', 'cursor'] as const, i),
    source: 'hook' as const,
    sessionId: `bench-${i >> 6}`,
    cwd: `/work/project-${i % 10}`,
    at: new Date(1_700_000_000_000 + i * 1000).toISOString(),
    toolUseId: `t${i}`,
    kind: 'tool_result' as const,
  };
  switch (i % 3) {
    case 0:
      return { ...base, toolName: 'Bash', toolInput: { command: `npm run ${w1} -- --${w2}` }, toolResponse: { stdout: `${w3} done in ${i % 97} ms`, stderr: '' } };
    case 1:
      return { ...base, toolName: 'Read', toolInput: { file_path: `/work/project-${i % 10}/${file}` }, toolResponse: `// ${w1} ${w2} ${w3}` };
    default:
      return {
        ...base,
        toolName: 'Edit',
        toolInput: { file_path: `/work/project-${i % 10}/${file}`, old_string: `${w1}()`, new_string: `${w2}(${w3})` },
        toolResponse: 'ok',
      };
  }
}

export interface SearchFigures {
  observations: number;
  seedSeconds: number;
  p50Ms: number;
  p95Ms: number;
  filteredP95Ms: number;
  /** Questions as a model asks them (function words and six content words, most of them common). */
  questionP50Ms: number;
  questionP95Ms: number;
}

export function benchSearch(count: number, queries = 300): SearchFigures {
  const home = benchHome();
  try {
    const store = openStore(join(home.dataDir, 'claude-mem.db'));
    const seedStart = performance.now();
    const batch = 5000;
    for (let start = 0; start < count; start += batch) {
      const events: CaptureEvent[] = [];
      for (let i = start; i < Math.min(count, start + batch); i++) events.push(seedEvent(i));
      store.ingest(events);
    }
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const plain: number[] = [];
    const filtered: number[] = [];
    const questions: number[] = [];
    for (let q = 0; q < queries; q++) {
      const query = q % 3 === 0 ? `${pick(WORDS, q)} ${pick(WORDS, q * 7 + 1)}` : q % 3 === 1 ? pick(WORDS, q * 3) : `${pick(WORDS, q).slice(0, 4)}*`;
      let t = performance.now();
      store.search({ query, limit: 20 });
      plain.push(performance.now() - t);
      t = performance.now();
      store.search({ query, limit: 20, host: 'codex', type: 'command' });
      filtered.push(performance.now() - t);
      const question = `how did we fix the ${pick(WORDS, q)} ${pick(WORDS, q * 7 + 1)} timeout in the ${pick(WORDS, q * 3 + 2)} ${pick(WORDS, q * 11 + 4)} last week?`;
      t = performance.now();
      store.search({ query: question, limit: 20 });
      questions.push(performance.now() - t);
    }
    store.close();
    return {
      observations: count,
      seedSeconds: round(seedSeconds, 1),
      p50Ms: round(percentile(plain, 50)),
      p95Ms: round(percentile(plain, 95)),
      filteredP95Ms: round(percentile(filtered, 95)),
      questionP50Ms: round(percentile(questions, 50)),
      questionP95Ms: round(percentile(questions, 95)),
    };
  } finally {
    home.cleanup();
  }
}
