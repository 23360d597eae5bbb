import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { bash, ev, openTemp, prompt, useTempStore } from './fixtures.js';

const { track } = useTempStore();

/** Every byte SQLite wrote for this database: the file, and the WAL if one is left. */
function fileBytes(s: SqliteStore): string {
  s.checkpointWal();
  const parts = [readFileSync(s.path)];
  if (existsSync(`${s.path}-wal`)) parts.push(readFileSync(`${s.path}-wal`));
  return Buffer.concat(parts).toString('latin1');
}

describe('privacy before storage', () => {
  it('never writes a secret from tool output, or a private span, to the database file', () => {
    const s = openTemp();
    track(s);
    const token = 'ghp_' + 'Zq8'.repeat(12);
    const aws = 'AKIA' + 'QWERTYUIOPASDFGH';
    s.ingest([
      prompt('deploy it <private>my bank pin is 9911</private> please'),
      bash('cat .env', `GITHUB_TOKEN=${token}\nAWS_ACCESS_KEY_ID=${aws}\nplain-marker-line`, { toolUseId: 's1' }),
      ev({ kind: 'assistant_message', message: `I used ${token} to push.` }),
      ev({ kind: 'session_end' }),
    ]);
    s.addDeadLetter({ source: 'transcript', filePath: '/tmp/x.jsonl', offset: 0, reason: 'unparseable', raw: `{"oops": "${token}"` });
    const bytes = fileBytes(s);
    expect(bytes).toContain('plain-marker-line'); // the row is there...
    expect(bytes).not.toContain(token); // ...without the secret
    expect(bytes).not.toContain(aws);
    expect(bytes).not.toContain('bank pin');
    expect(bytes).not.toContain('9911');
  });
});
