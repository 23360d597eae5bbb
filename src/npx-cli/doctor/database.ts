/**
 * Database integrity (`PRAGMA quick_check`) and schema version. quick_check reads the whole file,
 * so it runs in a worker thread: a large database cannot hold the other checks up, and a time box
 * can give up on it.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { lossRecordPath } from '../../shared/losses.js';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { SCHEMA_VERSION } from '../../store/migrations.js';
import type { StorageFailure } from '../../worker/storage-health.js';
import { databaseWriteProblems, describeWriteProblem, type WriteProblem } from '../../store/writable.js';
import type { DoctorContext } from './context.js';
import { freeBytes, sizeText } from './data.js';
import { errorText } from './timebox.js';
import type { Check } from './types.js';

// CommonJS run by the thread: opens the file read-only, runs quick_check, reads the schema version.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
try {
  const Database = require(workerData.module);
  const db = new Database(workerData.path, { readonly: true, fileMustExist: true, timeout: 1000 });
  const problems = db.pragma('quick_check(20)').map((r) => r.quick_check);
  let version = 0;
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get()) {
    version = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get().v || 0;
  }
  db.close();
  parentPort.postMessage({ ok: true, problems, version });
} catch (e) {
  parentPort.postMessage({ ok: false, code: e && e.code, message: String(e && e.message || e) });
}`;

type Outcome = { ok: true; problems: string[]; version: number } | { ok: false; code?: string; message: string } | { timedOut: true };

function inThread(path: string, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(THREAD, { eval: true, workerData: { path, module: createRequire(import.meta.url).resolve('better-sqlite3') } });
    } catch (e) {
      resolve({ ok: false, message: errorText(e) });
      return;
    }
    const timer = setTimeout(() => {
      resolve({ timedOut: true });
      void worker.terminate();
    }, timeoutMs);
    worker.once('message', (m: Outcome) => {
      clearTimeout(timer);
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', (e) => {
      clearTimeout(timer);
      resolve({ ok: false, message: errorText(e) });
    });
    worker.unref();
  });
}

export async function databaseChecks(ctx: DoctorContext): Promise<Check[]> {
  const [integrity, writable] = await Promise.all([integrityChecks(ctx), writableCheck(ctx)]);
  return [...integrity, writable];
}

async function integrityChecks(ctx: DoctorContext): Promise<Check[]> {
  const db = ctx.paths.db;
  if (!existsSync(db)) {
    const ev = `${db} does not exist yet (the worker creates it on its first start)`;
    return [
      { id: 'data.database', area: 'data', status: 'warn', evidence: ev, fix: 'claude-mem start' },
      { id: 'data.migrations', area: 'data', status: 'warn', evidence: ev, fix: 'claude-mem start' },
    ];
  }
  const size = `${(statSync(db).size / 1024 ** 2).toFixed(1)} MiB`;
  const r = await inThread(db, ctx.probeTimeoutMs);
  const aside = `Stop the worker (claude-mem stop), move ${db} aside (memory starts empty) or restore a copy from a backup, then claude-mem start.`;
  if ('timedOut' in r) {
    const ev = `quick_check of ${db} (${size}) did not finish within ${ctx.probeTimeoutMs} ms`;
    return [
      { id: 'data.database', area: 'data', status: 'warn', evidence: ev, fix: `Run it alone: sqlite3 '${db}' 'PRAGMA quick_check'` },
      { id: 'data.migrations', area: 'data', status: 'warn', evidence: `${ev}; schema version not read` },
    ];
  }
  if (!r.ok) {
    const corrupt = /CORRUPT|NOTADB/.test(r.code ?? '') || /not a database|malformed/i.test(r.message);
    const ev = `${db} (${size}) cannot be read: ${r.message}${r.code ? ` (${r.code})` : ''}`;
    return [
      { id: 'data.database', area: 'data', status: 'fail', evidence: ev, fix: corrupt ? aside : 'Check that the file is readable by you; see logs/worker.log.' },
      { id: 'data.migrations', area: 'data', status: 'fail', evidence: 'schema version not readable (see data.database)', fix: corrupt ? aside : undefined },
    ];
  }
  const clean = r.problems.length === 1 && r.problems[0] === 'ok';
  const out: Check[] = [clean
    ? { id: 'data.database', area: 'data', status: 'ok', evidence: `quick_check ok (${db}, ${size})` }
    : { id: 'data.database', area: 'data', status: 'fail', evidence: `quick_check found problems in ${db}: ${r.problems.slice(0, 3).join('; ')}`, fix: aside }];
  if (r.version === SCHEMA_VERSION) out.push({ id: 'data.migrations', area: 'data', status: 'ok', evidence: `schema version ${r.version} (current)` });
  else if (r.version > SCHEMA_VERSION) {
    out.push({ id: 'data.migrations', area: 'data', status: 'fail', evidence: `schema version ${r.version} is newer than this claude-mem understands (${SCHEMA_VERSION})`, fix: 'Upgrade claude-mem: npx claude-mem@latest install' });
  } else {
    out.push({ id: 'data.migrations', area: 'data', status: 'fail', evidence: `schema version ${r.version}, current is ${SCHEMA_VERSION}: the worker migrates it when it starts`, fix: 'claude-mem restart' });
  }
  return out;
}

/** The spool directory and the loss record too: where captures go when the database refuses them. */
function captureWriteProblems(ctx: DoctorContext): WriteProblem[] {
  const out = databaseWriteProblems(ctx.paths.db);
  for (const [path, role] of [[ctx.paths.spool, 'directory'], [lossRecordPath(ctx.paths.root), 'loss record']] as const) {
    try {
      const st = statSync(path);
      try {
        accessSync(path, constants.W_OK);
      } catch (e) {
        out.push({ path, role, code: (e as NodeJS.ErrnoException).code ?? 'EACCES', mode: st.mode & 0o7777, uid: st.uid });
      }
    } catch {
      // Created when first needed.
    }
  }
  return out;
}

/** What `doctor --fix` gives write access back to (fix.ts); the database file itself is the user's. */
const OURS: ReadonlySet<WriteProblem['role']> = new Set(['directory', 'write-ahead log', 'shared-memory index', 'loss record']);

/** Can the database (and the spool behind it) take writes, and does the running worker manage to? */
async function writableCheck(ctx: DoctorContext): Promise<Check> {
  const id = 'data.writable';
  const problems = captureWriteProblems(ctx);
  if (problems.length) {
    // The directories, -wal, -shm and the loss record are claude-mem's to repair; the database the user's.
    const userFiles = problems.filter((p) => !OURS.has(p.role) && p.code !== 'EROFS').map((p) => `'${p.path}'`);
    const steps = [
      ...(problems.some((p) => p.code === 'EROFS') ? [`remount the file system of ${ctx.paths.root} read-write`] : []),
      ...(userFiles.length ? [`chmod u+w ${userFiles.join(' ')}`] : []),
      'claude-mem doctor --fix (gives the data and spool directories, the -wal and -shm files and the loss record back their write access, then starts or restarts the worker, which drains the spool)',
    ];
    return {
      id, area: 'data', status: 'fail',
      evidence: `cannot be written by this user, so captures are not stored: ${problems.map(describeWriteProblem).join('; ')}`,
      fix: steps.join(', then '),
    };
  }
  const storage = ((await ctx.worker()).stats as { storage?: StorageFailure | null } | null)?.storage;
  if (storage) {
    const free = freeBytes(ctx.paths);
    const cause = storage.problem === 'full'
      ? `the disk of ${ctx.paths.root} is full (${free === undefined ? 'free space unknown' : `${sizeText(free)} free`})`
      : storage.problem === 'readonly' ? 'the worker opened the database while it was read-only' : 'the disk reports I/O errors';
    return {
      id, area: 'data', status: 'fail',
      evidence: `the running worker's writes fail since ${storage.since} (${storage.failures}×, ${storage.code}: ${storage.message}): ${cause}; captures go to the spool meanwhile (see capture.spool, capture.losses)`,
      fix: storage.problem === 'full'
        ? 'Free disk space: the worker stores the spool by itself once there is room.'
        : storage.problem === 'readonly' ? 'claude-mem doctor --fix (restarts the worker, which reopens the database for writing)' : 'Check the disk (dmesg, SMART) and restore a backup if needed.',
    };
  }
  return { id, area: 'data', status: 'ok', evidence: `the database, its -wal and -shm files and ${ctx.paths.spool} are writable` };
}
