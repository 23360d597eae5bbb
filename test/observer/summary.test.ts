import { describe, expect, it } from 'vitest';
import { observe, summarize } from '../../src/observer/index.js';
import type { ObservationDraft, SessionDigest } from '../../src/observer/types.js';
import { CWD, toolEvent } from './events.js';

const obs = (e: Parameters<typeof observe>[0]): ObservationDraft => observe(e)!;

function digest(over: Partial<SessionDigest> = {}): SessionDigest {
  return {
    host: 'claude-code', project: 'demo',
    prompts: ['Fix the failing login test', 'also update the README'],
    observations: [
      obs(toolEvent('Read', { file_path: `${CWD}/src/login.ts` }, { file: { content: 'x' } })),
      obs(toolEvent('Edit', { file_path: `${CWD}/src/login.ts`, old_string: 'a', new_string: 'b' }, {})),
      obs(toolEvent('Bash', { command: 'npm test' }, { stdout: 'ok', stderr: '', exit_code: 1 })),
      obs(toolEvent('Bash', { command: 'npm test' }, { stdout: 'ok', stderr: '' })),
      obs(toolEvent('Write', { file_path: `${CWD}/README.md`, content: '# Demo\n' }, { type: 'update' })),
    ],
    ...over,
  };
}

describe('summarize', () => {
  it('collects request, files, commands and outcome', () => {
    const s = summarize(digest({ lastAssistantMessage: 'Fixed the login test and updated the README.' }));
    expect(s.request).toBe('Fix the failing login test / also update the README');
    expect(s.filesRead).toEqual(['src/login.ts']);
    expect(s.filesModified).toEqual(['src/login.ts', 'README.md']);
    expect(s.commands).toEqual(['npm test']);
    expect(s.outcome).toBe('Fixed the login test and updated the README.');
    expect(s.text).toContain('Request: Fix the failing login test');
    expect(s.text).toContain('Modified: src/login.ts, README.md');
    expect(s.text).toContain('Commands: `npm test`');
    expect(s.text).toMatch(/Activity: .*2 command.*; 1 failed/);
  });

  it('without an assistant message the last command decides the outcome', () => {
    expect(summarize(digest()).outcome).toBe('Last command `npm test` succeeded.');
    const failing = digest();
    failing.observations = failing.observations.slice(0, 3);
    expect(summarize(failing).outcome).toBe('Last command `npm test` failed (exit 1).');
  });

  it('falls back to modified files, then the last step, then the end reason', () => {
    const edits = digest();
    edits.observations = edits.observations.filter((o) => o.type === 'edit');
    expect(summarize(edits).outcome).toBe('Modified 2 files.');
    const reads = digest();
    reads.observations = reads.observations.slice(0, 1);
    expect(summarize(reads).outcome).toBe('Last step: Read src/login.ts');
    expect(summarize({ host: 'codex', project: 'p', prompts: [], observations: [], endReason: 'clear' })).toEqual({
      request: '', filesRead: [], filesModified: [], commands: [], outcome: 'Session ended (clear) with no recorded activity.',
      text: 'Outcome: Session ended (clear) with no recorded activity.',
    });
  });

  it('is bounded on long sessions', () => {
    const many: ObservationDraft[] = [];
    for (let i = 0; i < 400; i++) {
      many.push(obs(toolEvent('Edit', { file_path: `${CWD}/src/f${i}.ts`, old_string: 'a', new_string: 'b' }, {})));
      many.push(obs(toolEvent('Read', { file_path: `${CWD}/lib/r${i}.ts` }, 'x')));
      many.push(obs(toolEvent('Bash', { command: `echo ${i} ${'y'.repeat(300)}` }, 'x')));
    }
    const s = summarize({ host: 'pi', project: 'p', prompts: Array.from({ length: 30 }, (_, i) => `prompt ${i} ${'p'.repeat(500)}`),
      observations: many, lastAssistantMessage: 'm'.repeat(5000) });
    expect(s.request.length).toBeLessThanOrEqual(400);
    expect(s.request).toMatch(/\(\+27 more prompts\)$/);
    expect(s.filesModified.length).toBe(50);
    expect(s.filesRead.length).toBe(50);
    expect(s.commands.length).toBe(20);
    expect(s.commands.every((c) => c.length <= 200)).toBe(true);
    expect(s.outcome.length).toBeLessThanOrEqual(400);
    expect(s.text.length).toBeLessThanOrEqual(2000);
  });

  it('says what the replies found, not only how the session ended', () => {
    const s = summarize(digest({
      assistantMessages: [
        'Looking at the test output now.',
        'The cause was a race between the token refresh and the login request, because both write the cookie.',
        'I decided to serialize them with a mutex instead of retrying.',
        'Done: the login test passes.',
      ],
      lastAssistantMessage: 'Done: the login test passes.',
    }));
    expect(s.text).toMatch(/^Found: The cause was a race between the token refresh and the login request, because both write the cookie\. I decided to serialize them with a mutex instead of retrying\.$/m);
    expect(s.text).not.toContain('Looking at the test output');
    expect(s.outcome).toBe('Done: the login test passes.');
  });

  it('tolerates malformed digests', () => {
    const bad = { host: 'x', project: 'p', prompts: [null, 3, 'ok'], observations: [null, { title: 5 }] } as unknown as SessionDigest;
    expect(summarize(bad).request).toBe('ok');
  });
});
