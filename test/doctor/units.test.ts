/** The pure parts of doctor: reading commands out of host configs, and the human rendering. */
import { describe, expect, it } from 'vitest';
import { findHookCommands, findMcpLaunches, namedPaths, runtimeRefs, shellWords } from '../../src/npx-cli/doctor/hook-commands.js';
import { renderReport } from '../../src/npx-cli/doctor/render.js';
import { isOk } from '../../src/npx-cli/doctor/run.js';
import type { DoctorReport } from '../../src/npx-cli/doctor/types.js';

const CMD = `'/opt/node dir/bin/node' '/opt/it'\\''s/claude-mem/dist/bin.js' hook claude-code PostToolUse`;

describe('reading host configs', () => {
  it('splits shell words as sh does (quotes, escapes)', () => {
    expect(shellWords(CMD)).toEqual(['/opt/node dir/bin/node', "/opt/it's/claude-mem/dist/bin.js", 'hook', 'claude-code', 'PostToolUse']);
    expect(shellWords(`a "b \\"c\\"" d\\ e`)).toEqual(['a', 'b "c"', 'd e']);
  });

  it('finds our hook commands, as shell strings and argv arrays, for the named host only', () => {
    const doc = {
      hooks: {
        PostToolUse: [{ hooks: [{ type: 'command', command: CMD }] }, { hooks: [{ command: 'echo mine' }] }],
        Stop: [{ argv: ['/usr/bin/node', '/x/dist/bin.js', 'hook', 'claude-code', 'Stop'] }],
        Other: [{ command: `'/n' '/e' hook cursor stop` }],
      },
    };
    const found = findHookCommands(doc, 'claude-code', '/f.json');
    expect(found.map((c) => [c.event, c.shell !== undefined])).toEqual([['PostToolUse', true], ['Stop', false]]);
    expect(runtimeRefs([doc], 'claude-code')).toEqual([
      { node: '/opt/node dir/bin/node', entry: "/opt/it's/claude-mem/dist/bin.js" },
      { node: '/usr/bin/node', entry: '/x/dist/bin.js' },
    ]);
  });

  it('finds MCP launches in every shape hosts use', () => {
    const doc = {
      mcpServers: { 'claude-mem': { command: '/n', args: ['/e/bin.js', 'mcp'] }, other: { command: 'npx', args: ['x'] } },
      mcp: { 'claude-mem': { type: 'local', command: ['/n', '/e/bin.js', 'mcp'] } },
      extensions: { 'claude-mem': { cmd: '/n', args: ['/e/bin.js', 'mcp'], envs: { A: '1' } } },
    };
    expect(findMcpLaunches(doc)).toEqual([
      { argv: ['/n', '/e/bin.js', 'mcp'], env: {} },
      { argv: ['/n', '/e/bin.js', 'mcp'], env: {} },
      { argv: ['/n', '/e/bin.js', 'mcp'], env: { A: '1' } },
    ]);
  });

  it('lists the absolute paths entries name, globs left out', () => {
    expect(namedPaths([{ command: CMD, watch: '/h/.dsh/sessions/**/session.jsonl*', nodePath: '/n', note: 'see /docs' }]).sort())
      .toEqual(['/n', "/opt/it's/claude-mem/dist/bin.js", '/opt/node dir/bin/node']);
  });
});

describe('rendering', () => {
  const report: DoctorReport = {
    version: '9.9.9', ok: false, fixed: [{ id: 'x.drift', ok: true, action: 're-applied' }],
    checks: [
      { id: 'runtime.node', area: 'runtime', status: 'ok', evidence: 'Node 20' },
      { id: 'worker.identity', area: 'worker', status: 'fail', evidence: 'not running', fix: 'claude-mem start' },
      { id: 'codex.drift', area: 'hosts', host: 'codex', status: 'warn', evidence: 'changed', fix: 'doctor --fix', detail: '+a\n-b' },
    ],
  };

  it('uses marks on a terminal and words elsewhere, grouped by area and host', () => {
    const tty = renderReport(report, { tty: true });
    expect(tty).toMatch(/✓ runtime\.node/);
    expect(tty).toMatch(/✗ worker\.identity/);
    const plain = renderReport(report, { tty: false });
    expect(plain).toContain('\nRuntime\n  ok   runtime.node');
    expect(plain).toContain('\nWorker\n  FAIL worker.identity');
    expect(plain).toContain('       fix: claude-mem start');
    expect(plain).toContain('\nHosts\n  Codex CLI\n    warn codex.drift');
    expect(plain).toContain('| +a');
    expect(plain).toContain('done x.drift: re-applied');
    expect(plain).toContain('1 ok, 1 warning(s), 1 failure(s)');
  });

  it('passes warnings unless strict', () => {
    const warn = [report.checks[2]];
    expect(isOk(warn, false)).toBe(true);
    expect(isOk(warn, true)).toBe(false);
    expect(isOk([report.checks[1]], false)).toBe(false);
  });
});

describe('probe payloads', () => {
  it('each host\'s probe is read in its own dialect as one probe event of that host', async () => {
    const { PROBES } = await import('../../src/npx-cli/doctor/probe-payloads.js');
    const { getAdapter } = await import('../hook-adapters/loaded.js');
    for (const [host, spec] of Object.entries(PROBES)) {
      const payload = spec!.payload('claude-mem-doctor-probe-abc', '/tmp');
      const r = getAdapter(host as never).normalize({
        host: host as never, event: spec!.event, payload, rawStdin: JSON.stringify(payload), env: {}, now: new Date().toISOString(),
      });
      expect(r.dropReason, host).toBeUndefined();
      expect(r.wantsContext, host).toBe(false);
      expect(r.events.map((e) => [e.host, e.sessionId, e.probe]), host).toEqual([[host, 'claude-mem-doctor-probe-abc', true]]);
    }
    expect(Object.keys(PROBES).sort()).toEqual(['antigravity', 'claude-code', 'codex', 'copilot', 'cursor', 'gemini', 'goose', 'grok', 'kimi', 'windsurf']);
  });

  it('an ordinary payload is never a probe', async () => {
    const { getAdapter } = await import('../hook-adapters/loaded.js');
    const payload = { session_id: 's1', cwd: '/tmp', hook_event_name: 'SessionStart' };
    const r = getAdapter('claude-code').normalize({ host: 'claude-code', event: 'SessionStart', payload, rawStdin: '', env: {}, now: new Date().toISOString() });
    expect(r.events[0].probe).toBeUndefined();
  });
});
