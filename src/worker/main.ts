/** Entry point of dist/worker.mjs (started by dist/worker.js): one long-lived worker for the data directory in CLAUDE_MEM_DATA_DIR. */
import { dataDir, dataPaths } from '../shared/paths.js';
import { runWorker } from './lifecycle/run.js';
import { openStore } from '../store/sqlite-store.js';

// A short busy timeout keeps the event loop free: a locked database answers 503 and the caller spools.
await runWorker({ paths: dataPaths(dataDir(process.env)), openStore: (db) => openStore(db, { busyTimeoutMs: 2000 }) });
