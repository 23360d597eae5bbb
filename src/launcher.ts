// What every host runs: <data>/runtime/claude-mem.cjs (built as dist/launcher.cjs, copied there by
// install). Its path never changes, so upgrades replace what it starts without touching a single
// host config, and an npm cache eviction cannot break it: it starts <data>/runtime/current.
//
// When that program is missing or fails to load, a hook still exits 0 without a word (it runs
// inside someone else's agent) and the call is recorded in missed-hooks.jsonl, which doctor
// reports; any other command says what is wrong and exits 1.
import { appendFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CURRENT_NAME, MISSED_NAME, type MissedHook } from './shared/runtime-layout.js';

const MISSED_MAX_BYTES = 1024 * 1024;
const STDIN_WAIT_MS = 2000;

const here = __dirname;
const entry = join(here, CURRENT_NAME, 'dist', 'bin.js');
const args = process.argv.slice(2);

// This launcher belongs to the data directory it sits in.
process.env.CLAUDE_MEM_DATA_DIR ||= dirname(here);

function recordMissed(reason: string): void {
  try {
    const file = join(here, MISSED_NAME);
    if (existsSync(file) && statSync(file).size > MISSED_MAX_BYTES) return;
    const line: MissedHook = { at: new Date().toISOString(), host: args[1] ?? '', event: args[2] ?? '', reason };
    appendFileSync(file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
  } catch {
    // Nowhere to record it: the hook still must not fail.
  }
}

/** Reads the payload the host writes (so its write never fails), then exits 0. */
function endHookQuietly(): void {
  const done = () => process.exit(0);
  setTimeout(done, STDIN_WAIT_MS);
  process.stdin.on('data', () => {});
  process.stdin.on('end', done);
  process.stdin.on('error', done);
}

function fail(reason: string): void {
  if (args[0] === 'hook') {
    recordMissed(reason);
    endHookQuietly();
    return;
  }
  process.stderr.write(`claude-mem: ${reason}.\n`
    + 'Install claude-mem again the way you first did (it puts the program back); `doctor` then shows what was missed.\n');
  process.exitCode = 1;
}

if (!existsSync(entry)) {
  fail(`the program this launcher starts is missing (${entry})`);
} else {
  try {
    require(entry);
  } catch (e) {
    fail(`the program at ${entry} failed to load: ${(e as Error)?.message ?? String(e)}`.split('\n')[0]);
  }
}
