/**
 * Import progress on stderr: a bar redrawn in place (counts, MB, ETA) on a terminal; elsewhere
 * (pipes, CI, logs) a plain line at most every few seconds and at the end — never a spinner.
 */
import type { ImportProgress } from '../../worker/import/run.js';
import { formatDuration } from '../output.js';

const BAR = 24;
const PLAIN_EVERY_MS = 5000;
const TTY_EVERY_MS = 100;

export const mb = (bytes: number): string =>
  bytes < 1e6 ? `${Math.ceil(bytes / 1e3)} kB` : bytes < 1e9 ? `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB` : `${(bytes / 1e9).toFixed(2)} GB`;

interface ProgressView {
  update(p: ImportProgress): void;
  /** Ends the bar's line (TTY) or prints the last state (plain). */
  done(): void;
}

export function progressView(stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now): ProgressView {
  const tty = !!stream.isTTY && process.env.TERM !== 'dumb';
  const started = now();
  let last = 0;
  let latest: ImportProgress | undefined;
  const line = (p: ImportProgress): string => {
    const frac = p.bytesTotal > 0 ? Math.min(1, p.bytesDone / p.bytesTotal) : 1;
    const elapsed = now() - started;
    const eta = frac > 0.01 && frac < 1 && elapsed > 2000 ? ` ETA ${formatDuration((elapsed / frac) * (1 - frac))}` : '';
    const counts = `${p.logsDone}/${p.logsTotal} sessions, ${mb(p.bytesDone)} of ${mb(p.bytesTotal)}, ${p.stored} stored`;
    if (!tty) return `import: ${Math.floor(frac * 100)}% — ${counts}${eta}`;
    const fill = Math.round(frac * BAR);
    return `[${'#'.repeat(fill)}${'-'.repeat(BAR - fill)}] ${Math.floor(frac * 100)}% ${counts}${eta}`;
  };
  return {
    update(p) {
      latest = p;
      const t = now();
      if (t - last < (tty ? TTY_EVERY_MS : PLAIN_EVERY_MS)) return;
      last = t;
      if (tty) stream.write(`\r\x1b[2K${line(p)}`);
      else stream.write(`${line(p)}\n`);
    },
    done() {
      if (!latest) return;
      if (tty) stream.write(`\r\x1b[2K${line(latest)}\n`);
      else stream.write(`${line(latest)}\n`);
    },
  };
}
