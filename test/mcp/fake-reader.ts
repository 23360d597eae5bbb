// A scripted MemoryReader for tool tests: records the queries it gets and answers canned rows.
import type { Answer, MemoryReader } from '../../src/mcp/reader.js';
import type {
  ContextQuery, ContextResult, Observation, SaveMemoryInput, SearchAnswer, SearchEvidence, SearchQuery, TimelineItem, TimelineQuery,
} from '../../src/store/types.js';

export function observation(id: number, over: Partial<Observation> = {}): Observation {
  return {
    id, sessionId: 1, hostSessionId: 'sess-1', host: 'claude-code', project: 'proj', promptNumber: 1, type: 'command',
    title: `Ran npm test #${id}`, subtitle: null, narrative: 'vitest ran 12 tests, 1 failed in parser.test.ts',
    facts: ['exit code 1'], filesRead: [], filesModified: ['/w/src/parser.ts'], concepts: ['testing'], toolName: 'Bash',
    toolUseId: `tu-${id}`, createdAt: '2025-03-01T10:00:00.000Z', ...over,
  };
}

export class FakeReader implements MemoryReader {
  calls: { op: string; arg: unknown }[] = [];
  store = new Map<number, Observation>([[1, observation(1)], [2, observation(2, { type: 'edit', title: 'Edited parser.ts' })]]);
  fail?: Error;

  private answer<T>(op: string, arg: unknown, value: T): Promise<Answer<T>> {
    this.calls.push({ op, arg });
    if (this.fail) return Promise.reject(this.fail);
    return Promise.resolve({ value, via: 'database' });
  }

  search(q: SearchQuery): Promise<Answer<SearchAnswer>> {
    const evidence: SearchEvidence[] = [...this.store.values()].map((o) => ({
      kind: 'observation', id: o.id, title: o.title, snippet: o.narrative, type: o.type, promptNumber: 1,
      files: o.filesModified, createdAt: o.createdAt,
    }));
    const session = (id: number, hostSessionId: string, host: 'claude-code' | 'codex', request: string, ev: SearchEvidence[], promptId = id * 10) => ({
      sessionId: id, hostSessionId, host, project: 'proj', startedAt: '2025-03-01T10:00:00.000Z', endedAt: null, summaryId: null,
      request, outcome: 'vitest passes', files: [], createdAt: '2025-03-01T10:00:00.000Z', score: 1,
      turns: [{ promptNumber: 1, promptId, request, outcome: 'vitest passes', outcomeId: null, evidence: ev }],
    });
    const results = [
      session(1, 'sess-1', 'claude-code', 'run the tests', evidence),
      session(2, 'sess-2', 'codex', 'fix the parser', [{ kind: 'prompt', id: 7, title: 'fix the parser', snippet: 'fix the **parser**', type: 'prompt',
        promptNumber: 1, files: [], createdAt: '2025-03-01T09:00:00.000Z' }], 7),
    ];
    return this.answer('search', q, { results, project: q.project ?? null, widened: false });
  }

  timeline(q: TimelineQuery): Promise<Answer<TimelineItem[]>> {
    const items: TimelineItem[] = [
      { kind: 'session_start', id: 1, title: 'startup', host: 'claude-code', hostSessionId: 'sess-1', project: 'proj', createdAt: '2025-03-01T09:59:00.000Z' },
      ...[...this.store.values()].map((o) => ({ kind: 'observation' as const, id: o.id, title: o.title, host: o.host,
        hostSessionId: o.hostSessionId, project: o.project, createdAt: o.createdAt })),
    ];
    return this.answer('timeline', q, items);
  }

  getObservations(ids: number[]): Promise<Answer<Observation[]>> {
    return this.answer('getObservations', ids, ids.flatMap((id) => this.store.get(id) ?? []));
  }

  save(input: SaveMemoryInput): Promise<Answer<Observation>> {
    const o = observation(99, { type: 'memory', title: input.title ?? input.text.split('\n')[0], narrative: input.text,
      project: input.project ?? 'proj', concepts: input.concepts ?? [], filesRead: input.files ?? [], toolName: null });
    return this.answer('save', input, o);
  }

  context(q: ContextQuery): Promise<Answer<ContextResult>> {
    return this.answer('context', q, { project: q.project ?? 'proj', text: '# Memory\n- Ran npm test', observationIds: [1], summaryId: null, approxTokens: 8 });
  }
}
