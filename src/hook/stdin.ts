/**
 * Reads the host's hook payload from stdin. A host may never close stdin, send nothing, or send
 * far too much; none of that may hang or crash the hook.
 */

export interface StdinRead {
  text: string;
  /** More than maxBytes arrived; the middle was discarded. */
  truncated: boolean;
  /** When truncated: the last bytes of the input (ids often come after a huge tool output). */
  tail?: string;
  /** The deadline passed before the end of input. */
  timedOut: boolean;
}

export interface StdinOptions {
  deadlineMs: number;
  maxBytes: number;
  stream?: NodeJS.ReadStream;
}

export const STDIN_DEADLINE_MS = 1000;
export const STDIN_MAX_BYTES = 16 * 1024 * 1024;
const TAIL_BYTES = 64 * 1024;

export function readStdin(opts: StdinOptions): Promise<StdinRead> {
  const stream = opts.stream ?? process.stdin;
  // An interactive terminal means nobody is piping a payload: don't wait for a human.
  if (stream.isTTY) return Promise.resolve({ text: '', truncated: false, timedOut: false });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tail: Buffer | undefined;
    let done = false;
    const finish = (timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stream.removeAllListeners('data');
      // Release the handle so a host that keeps the pipe open cannot keep us alive.
      stream.on('error', () => {});
      stream.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      resolve(tail ? { text, truncated: true, tail: tail.toString('utf8'), timedOut } : { text, truncated: false, timedOut });
    };
    // Kept referenced: when stdin is the only handle, this timer is what ends the wait.
    const timer = setTimeout(() => finish(true), opts.deadlineMs);
    stream.on('data', (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      const room = opts.maxBytes - size;
      if (buf.length <= room) {
        chunks.push(buf);
        size += buf.length;
        return;
      }
      // Over the cap: keep the head, then only a rolling tail until the end (or the deadline).
      if (room > 0) {
        chunks.push(buf.subarray(0, room));
        size = opts.maxBytes;
      }
      const rest = room > 0 ? buf.subarray(room) : buf;
      const joined = tail ? Buffer.concat([tail, rest]) : rest;
      tail = joined.length > TAIL_BYTES ? joined.subarray(joined.length - TAIL_BYTES) : joined;
    });
    stream.once('end', () => finish(false));
    stream.once('error', () => finish(false));
  });
}
