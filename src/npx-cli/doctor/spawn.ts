/**
 * Runs one command the way a host would (argv directly, or a shell string through /bin/sh -c),
 * feeds it stdin, and never waits past its time box: on timeout the whole process group is killed.
 */
import { spawn } from 'node:child_process';

interface RunSpec {
  argv?: readonly string[];
  shell?: string;
  input?: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs: number;
}

interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
  /** The process could not be started at all. */
  error?: string;
}

const MAX_OUT = 64 * 1024;

export function runProcess(spec: RunSpec): Promise<RunResult> {
  const t0 = performance.now();
  const [file, ...args] = spec.shell !== undefined ? ['/bin/sh', '-c', spec.shell] : [...(spec.argv ?? [])];
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    const done = (r: Omit<RunResult, 'stdout' | 'stderr' | 'timedOut' | 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, stdout, stderr, timedOut, ms: Math.round(performance.now() - t0) });
    };
    let child: ReturnType<typeof spawn>;
    try {
      // A group of its own, so a timeout also ends what a shell started.
      child = spawn(file, args, { env: spec.env, cwd: spec.cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true, windowsHide: true });
    } catch (e) {
      resolve({ code: null, signal: null, stdout, stderr, timedOut, ms: 0, error: (e as Error).message });
      return;
    }
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      // A grandchild may hold the pipes open: answer now.
      done({ code: null, signal: 'SIGKILL' });
    }, spec.timeoutMs);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout = (stdout + d).slice(0, MAX_OUT)));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-MAX_OUT)));
    child.stdin!.on('error', () => {}); // a command that ignores stdin may close it early
    child.on('error', (e) => done({ code: null, signal: null, error: e.message }));
    child.on('close', (code, signal) => done({ code, signal }));
    child.stdin!.end(spec.input ?? '');
  });
}

/** The last non-empty lines of a stream, for evidence. */
export function tail(text: string, lines = 3): string {
  return text.trim().split('\n').filter((l) => l.trim()).slice(-lines).join(' | ').slice(0, 400);
}
