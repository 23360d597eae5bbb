// Progress output: a bar redrawn in place on a terminal, plain lines at most every 5 s elsewhere.
import { describe, expect, it } from 'vitest';
import { progressView } from '../../src/npx-cli/import/progress.js';

function stream(isTTY: boolean) {
  const out: string[] = [];
  return { s: { isTTY, write: (t: string) => { out.push(t); return true; } } as unknown as NodeJS.WriteStream, out };
}
const p = (bytesDone: number, logsDone: number) => ({ host: 'codex' as const, log: 'x', logsDone, logsTotal: 4, bytesDone, bytesTotal: 4e6, stored: logsDone * 10 });

describe('import progress', () => {
  it('on a terminal: one line redrawn with counts, MB and an ETA, ended by a newline', () => {
    let now = 0;
    const { s, out } = stream(true);
    const v = progressView(s, () => now);
    now = 3000; v.update(p(1e6, 1));
    now = 6000; v.update(p(2e6, 2));
    v.done();
    expect(out[0]).toMatch(/^\r\x1b\[2K\[######-{18}\] 25% 1\/4 sessions, 1\.0 MB of 4\.0 MB, 10 stored ETA 9s$/);
    expect(out[1]).toContain('50% 2/4 sessions');
    expect(out[1]).toContain('ETA 6s');
    expect(out.at(-1)).toMatch(/\n$/);
    expect(out.join('')).not.toMatch(/\n.*\n/); // only the last draw ends a line
  });

  it('elsewhere: plain lines, at most one every 5 s, and the final state', () => {
    let now = 0;
    const { s, out } = stream(false);
    const v = progressView(s, () => now);
    for (let i = 1; i <= 40; i++) { now = i * 250; v.update(p(i * 1e5, 0)); }
    v.done();
    expect(out.every((l) => l.startsWith('import: ') && l.endsWith('\n') && !l.includes('\r'))).toBe(true);
    expect(out.length).toBeLessThanOrEqual(4);
    expect(out.at(-1)).toContain('4.0 MB of 4.0 MB');
  });
});
