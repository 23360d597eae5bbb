// The disk-full scenario of test/hook-runtime/disk-full.test.ts, run inside a private mount
// namespace (`unshare -m`, or `unshare -rm` for an ordinary user) so that its small tmpfs mounts
// are real file systems that really fill up, and vanish with the namespace.
//
//   node disk-full-scenario.mjs <repo root> <data dir>   (HOME and CLAUDE_MEM_DATA_DIR set by the caller)
//
// Prints one JSON document with what each step observed; the test makes the assertions.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const [repo, dataDir] = process.argv.slice(2);
const bin = join(repo, 'dist', 'bin.js');
const spool = join(dataDir, 'spool');
const env = { ...process.env, CLAUDE_MEM_DATA_DIR: dataDir };
const out = { steps: {} };

const run = (args, input) => {
  const r = spawnSync(process.execPath, [bin, ...args], { env, input, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
};
const json = (args) => {
  const r = run(args);
  try {
    return JSON.parse(r.stdout);
  } catch {
    return { unparsed: r.stdout, stderr: r.stderr, code: r.code };
  }
};
const mount = (dir, size) => {
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mount ${dir}: ${r.stderr}`);
};
const spoolFiles = () => readdirSync(spool).filter((f) => f.endsWith('.jsonl')).length;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Writes into `file` until the file system says ENOSPC: the disk is then full for real. */
function fill(file) {
  const fd = openSync(file, 'w');
  try {
    for (const size of [1 << 16, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 0x61);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (err) {
        if (err.code !== 'ENOSPC') throw err;
      }
    }
  } finally {
    closeSync(fd);
  }
}

function hook(id) {
  const payload = {
    session_id: 'sess-disk-full', cwd: repo, hook_event_name: 'PostToolUse', tool_name: 'Bash',
    tool_input: { command: `echo ${id}` }, tool_response: { stdout: `${id}\n`, stderr: '' }, tool_use_id: id,
  };
  return run(['hook', 'claude-code', 'PostToolUse'], JSON.stringify(payload));
}

const events = () => json(['status', '--json']).stats?.store?.events ?? -1;

try {
  mkdirSync(dataDir, { recursive: true });
  mount(dataDir, '16m');
  out.steps.start = run(['start']).code;
  out.steps.first = { hook: hook('toolu_df_0'), events: events() };

  // The spool gets a file system of its own, so the database can be full while the spool has room.
  mount(spool, '2m');
  fill(join(dataDir, 'filler'));
  const dbFull = ['toolu_df_1', 'toolu_df_2', 'toolu_df_3'].map(hook);
  out.steps.databaseFull = { hooks: dbFull, spoolFiles: spoolFiles(), events: events(), status: json(['status', '--json']) };

  // Now the spool is full too: these two can be kept nowhere, and must be counted.
  fill(join(spool, '.filler'));
  const allFull = ['toolu_df_4', 'toolu_df_5'].map(hook);
  out.steps.allFull = {
    hooks: allFull, spoolFiles: spoolFiles(), spoolEntries: readdirSync(spool).filter((f) => f !== '.filler'),
    status: json(['status', '--json']), doctor: json(['doctor', '--json']),
  };

  // Room again: the worker drains the spool by itself; doctor --fix then clears the loss record.
  rmSync(join(dataDir, 'filler'));
  rmSync(join(spool, '.filler'));
  const until = Date.now() + 20_000;
  while ((spoolFiles() > 0 || events() < 4) && Date.now() < until) await sleep(200);
  out.steps.recovered = { spoolFiles: spoolFiles(), events: events() };
  out.steps.fix = json(['doctor', '--fix', '--json']);
  out.steps.after = { status: json(['status', '--json']), events: events() };
} catch (err) {
  out.error = String(err?.stack ?? err);
} finally {
  run(['stop']);
  try {
    process.kill(JSON.parse(readFileSync(join(dataDir, 'worker.json'), 'utf8')).pid, 'SIGKILL');
  } catch {
    // Stopped cleanly.
  }
}
process.stdout.write(JSON.stringify(out));
