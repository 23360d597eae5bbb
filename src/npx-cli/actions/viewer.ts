/**
 * `claude-mem viewer` at work: starts the worker if needed, asks it (a signed request) for a
 * one-time sign-in link, prints it and opens it in the default browser. The link carries a code
 * that works once and expires; the token never leaves the data directory.
 */
import { spawn } from 'node:child_process';
import { dataPaths } from '../../shared/paths.js';
import { workerError, workerRequest } from '../../shared/worker-client.js';
import { ensureWorker } from '../../shared/worker-start.js';
import { CliError, eprintln, printJson, println, setExit } from '../output.js';

/** The platform's "open this URL" command. */
function opener(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  return ['xdg-open', [url]];
}

/** Starts the browser detached; resolves with the reason when that fails. */
function openBrowser(url: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const [cmd, args] = opener(url);
    try {
      const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
      child.once('error', (err) => resolve(`${cmd}: ${err.message}`));
      child.once('spawn', () => {
        child.unref();
        resolve(undefined);
      });
    } catch (err) {
      resolve(`${cmd}: ${(err as Error).message}`);
    }
  });
}

export async function runViewer(opts: { open: boolean; json?: boolean }): Promise<void> {
  const w = await ensureWorker({ paths: dataPaths(), waitMs: 10_000 });
  if (!w.ok) throw new CliError(`the worker is not running and could not be started: ${w.reason}`);
  const res = await workerRequest<{ url?: string }>({ port: w.port, auth: w.auth, method: 'POST', path: '/api/viewer/link', timeoutMs: 5000 });
  const url = res.status === 201 && res.verified ? res.body?.url : undefined;
  if (!url) {
    const e = workerError(res.body);
    throw new CliError(`the worker gave no viewer link (HTTP ${res.status}${e ? `: ${e.message}` : ''}); restart it with claude-mem restart`);
  }
  const failed = opts.open ? await openBrowser(url) : undefined;
  if (opts.json) {
    printJson({ ok: true, url, opened: opts.open && !failed, ...(failed ? { openError: failed } : {}) });
  } else {
    println(opts.open && !failed ? `Opened the viewer in your browser. The link works once: ${url}` : `Open this link in your browser (it works once, within 5 minutes):\n${url}`);
    if (failed) eprintln(`Could not open a browser (${failed}); open the link above yourself.`);
  }
  setExit(0);
}
