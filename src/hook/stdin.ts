/**
 * Reads the host's hook payload from stdin. A host may never close stdin, send nothing, or send
 * far too much; none of that may hang or crash the hook.
 *
 * Hosts write the payload and close stdin right after spawning the hook, so by the time node has
 * started it is normally all there: it is read at once, without a stream or a turn of the event
 * loop. Only a host still writing is waited for, through the stream, under the deadline.
 */
import { fstatSync, readSync } from 'node:fs';
import { Socket } from 'node:net';

interface StdinRead {
  text: string;
  /** More than maxBytes arrived; the middle was discarded. */
  truncated: boolean;
  /** When truncated: the last bytes of the input (ids often come after a huge tool output). */
  tail?: string;
  /** The deadline passed before the end of input. */
  timedOut: boolean;
}

interface StdinOptions {
  deadlineMs: number;
  maxBytes: number;
  /** Read this stream instead of file descriptor 0 (tests). */
  stream?: NodeJS.ReadStream;
}

export const STDIN_DEADLINE_MS = 1000;
export const STDIN_MAX_BYTES = 16 * 1024 * 1024;
const TAIL_BYTES = 64 * 1024;
const READ_BYTES = 64 * 1024;
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

type Drained = 'end' | 'more' | 'deadline';

/**
 * Reads fd 0 until the end of input, or until it would block (EAGAIN: the writer is still open).
 * Only called on a regular file or a descriptor in non-blocking mode, so it never waits.
 */
function drainFd0(got: Collector, deadlineAt: number): Drained {
  for (;;) {
    const buf = Buffer.allocUnsafe(READ_BYTES);
    let n: number;
    try {
      n = readSync(0, buf, 0, READ_BYTES, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK') return 'more';
      if (code === 'EINTR') continue;
      return 'end'; // a broken pipe or a reset socket: what arrived is all there is
    }
    if (n === 0) return 'end';
    got.push(buf.subarray(0, n));
    if (Date.now() > deadlineAt) return 'deadline';
  }
}

/** How fd 0 can be read: at once (a file), at once until it would block (a pipe or socket), or only as a stream. */
function fd0Kind(): 'file' | 'pipe' | 'other' {
  try {
    const st = fstatSync(0);
    if (st.isFile()) return 'file';
    // On Windows a pipe read cannot be made non-blocking: it goes through the stream.
    if ((st.isFIFO() || st.isSocket()) && process.platform !== 'win32') return 'pipe';
  } catch {
    // Let the stream decide.
  }
  return 'other';
}

/**
 * Through the stream (epoll, not the thread pool): a plain blocking read on a pipe the host
 * never closes could not be abandoned, and would even hold up the process at exit.
 */
function readStream(stream: NodeJS.ReadStream, got: Collector, deadlineMs: number): Promise<StdinRead> {
  // An interactive terminal means nobody is piping a payload: don't wait for a human.
  if (stream.isTTY) return Promise.resolve(EMPTY);
  return new Promise((resolve) => {
    let done = false;
    const finish = (timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stream.removeAllListeners('data');
      release(stream);
      resolve(got.result(timedOut));
    };
    // Kept referenced: when stdin is the only handle, this timer is what ends the wait.
    const timer = setTimeout(() => finish(true), Math.max(0, deadlineMs));
    stream.on('data', (chunk: Buffer | string) => got.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    stream.once('end', () => finish(false));
    stream.once('error', () => finish(false));
  });
}

/** Releases the handle so a host that keeps the pipe open cannot keep us alive. */
function release(stream: NodeJS.ReadStream): void {
  stream.on('error', () => {});
  stream.destroy();
}

export function readStdin(opts: StdinOptions): Promise<StdinRead> {
  const got = new Collector(opts.maxBytes);
  if (opts.stream) return readStream(opts.stream, got, opts.deadlineMs);
  const deadlineAt = Date.now() + opts.deadlineMs;
  switch (fd0Kind()) {
    case 'file': {
      const drained = drainFd0(got, deadlineAt);
      return Promise.resolve(got.result(drained === 'deadline'));
    }
    case 'pipe': {
      // As a socket, process.stdin has fd 0 opened by libuv, which puts it in non-blocking mode
      // (uv_pipe_open, uv_tcp_open), and does not read from it until asked to.
      const stdin = process.stdin;
      if (!(stdin instanceof Socket)) return readStream(stdin, got, opts.deadlineMs);
      const drained = drainFd0(got, deadlineAt);
      if (drained === 'more') return readStream(stdin, got, deadlineAt - Date.now());
      // At the end of input the handle, never started, holds nothing up: closing it only costs time.
      if (drained === 'deadline') release(stdin);
      return Promise.resolve(got.result(drained === 'deadline'));
    }
    default:
      return readStream(process.stdin, got, opts.deadlineMs);
  }
}
