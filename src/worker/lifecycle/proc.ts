/**
 * Linux best effort: who listens on a port, and what a pid is. Used only to make error
 * messages precise ("port 21345 is used by pid 812: python3 -m http.server"); every function
 * answers undefined where /proc is missing or unreadable.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is HEXIP:HEXPORT; state 0A is LISTEN; inode is column 9.
      if (cols.length > 9 && cols[1]?.endsWith(`:${hexPort}`) && cols[3] === '0A') inodes.add(cols[9]);
    }
  }
  inodes.delete('0');
  return inodes;
}

/** The pid listening on 127.0.0.1/0.0.0.0:port, if it can be seen. */
export function findPortOwner(port: number): number | undefined {
  const inodes = listeningInodes(port);
  if (!inodes.size) return undefined;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // Another user's process, or gone.
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && inodes.has(m[1])) return Number(pid);
      } catch {
        // Closed meanwhile.
      }
    }
  }
  return undefined;
}

/** The command line of a pid, for evidence. */
export function processCommand(pid: number): string | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return text.split('\0').filter(Boolean).join(' ').slice(0, 300) || undefined;
  } catch {
    return undefined;
  }
}

/** "pid 812 (python3 -m http.server)" or "pid 812" or "an unknown process". */
export function describePid(pid: number | undefined): string {
  if (!pid) return 'an unknown process';
  const cmd = processCommand(pid);
  return cmd ? `pid ${pid} (${cmd})` : `pid ${pid}`;
}

/** A process whose command line runs claude-mem's worker entry (dist/worker.mjs or worker.js). */
export function looksLikeWorker(pid: number): boolean {
  return /(^|[/\s])worker\.m?js(\s|$)/.test(processCommand(pid) ?? '');
}
