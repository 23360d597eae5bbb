/** worker.json (identity of the running worker) and worker.error.json (why the last start failed). */
import { unlinkSync } from 'node:fs';
import type { DataPaths } from '../../shared/paths.js';
import { readWorkerInfo, type WorkerInfo } from '../../shared/worker-client.js';
import { startErrorPath, writeFileAtomic, type StartError } from '../../shared/worker-start.js';

export function writeWorkerInfo(paths: DataPaths, info: WorkerInfo): void {
  writeFileAtomic(paths.workerJson, `${JSON.stringify(info, null, 2)}\n`);
}

/** Removes worker.json only when it still describes this instance (a newer worker may own it). */
export function removeWorkerInfoIfOurs(paths: DataPaths, instanceId: string): boolean {
  if (readWorkerInfo(paths)?.instanceId !== instanceId) return false;
  return removeFile(paths.workerJson);
}

export function writeStartError(paths: DataPaths, error: Omit<StartError, 'at' | 'pid'>): StartError {
  const full: StartError = { ...error, at: new Date().toISOString(), pid: process.pid };
  try {
    writeFileAtomic(startErrorPath(paths), `${JSON.stringify(full, null, 2)}\n`);
  } catch {
    // The log still has it.
  }
  return full;
}

export function clearStartError(paths: DataPaths): void {
  removeFile(startErrorPath(paths));
}

function removeFile(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}
