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
  /** Read this stream instead of file descriptor 0 (tests). */
  stream?: NodeJS.ReadStream;
}

export const STDIN_DEADLINE_MS = 1000;
export const STDIN_MAX_BYTES = 16 * 1024 * 1024;
const TAIL_BYTES = 64 * 1024;
const EMPTY: StdinRead = { text: '', truncated: false, timedOut: false };

/** Keeps the first maxBytes, then only a rolling tail. */
class Collector {
  private chunks: Buffer[] = [];
  private size = 0;
  private tail: Buffer | undefined;
  constructor(private readonly maxBytes: number) {}

  push(buf: Buffer): void {
    const room = this.maxBytes - this.size;
    if (buf.length <= room) {
      this.chunks.push(buf);
      this.size += buf.length;
      return;
    }
    if (room > 0) {
      this.chunks.push(buf.subarray(0, room));
      this.size = this.maxBytes;
    }
    const rest = room > 0 ? buf.subarray(room) : buf;
    const joined = this.tail ? Buffer.concat([this.tail, rest]) : rest;
    this.tail = joined.length > TAIL_BYTES ? Buffer.from(joined.subarray(joined.length - TAIL_BYTES)) : joined;
  }

  result(timedOut: boolean): StdinRead {
    const text = Buffer.concat(this.chunks).toString('utf8');
    return this.tail ? { text, truncated: true, tail: this.tail.toString('utf8'), timedOut } : { text, truncated: false, timedOut };
  }
}

/**
 * Through process.stdin (epoll, not the thread pool): a plain blocking read on a pipe the host
 * never closes could not be abandoned, and would even hold up the process at exit.
 */
export function readStdin(opts: StdinOptions): Promise<StdinRead> {
  const stream = opts.stream ?? process.stdin;
  // An interactive terminal means nobody is piping a payload: don't wait for a human.
  if (stream.isTTY) return Promise.resolve(EMPTY);
  return new Promise((resolve) => {
    const got = new Collector(opts.maxBytes);
    let done = false;
    const finish = (timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stream.removeAllListeners('data');
      // Release the handle so a host that keeps the pipe open cannot keep us alive.
      stream.on('error', () => {});
      stream.destroy();
      resolve(got.result(timedOut));
    };
    // Kept referenced: when stdin is the only handle, this timer is what ends the wait.
    const timer = setTimeout(() => finish(true), opts.deadlineMs);
    stream.on('data', (chunk: Buffer | string) => got.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    stream.once('end', () => finish(false));
    stream.once('error', () => finish(false));
  });
}
