/**
 * Host files after install: an entry of ours removed, a file made unparseable, the Codex hooks
 * feature switched off, a hook registered twice. Each is named with its fix; --fix re-applies
 * only our entries and leaves the user's own edits in the same file byte for byte.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyEdits, findNodeAtLocation, modify, parse, parseTree } from 'jsonc-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctor, doctorHome, failing, find, installAll, stopWorker, type TestHome } from './helpers.js';

const USER_GROUP = `{ "matcher": "Bash", "hooks": [ { "type": "command", "command": "echo mine" } ] }`;
const USER_FILE = `{
  // my settings
  "model": "opus",
  "hooks": {
    "PostToolUse": [
      ${USER_GROUP}
    ]
  }
}
`;

let h: TestHome;
let settings: string;

beforeAll(() => {
  h = doctorHome();
  settings = join(h.home, '.claude', 'settings.json');
  mkdirSync(join(h.home, '.claude'), { recursive: true });
  writeFileSync(settings, USER_FILE);
  installAll(h, 'claude-code,codex,cursor,copilot');
}, 120_000);

afterAll(() => stopWorker(h));

const FMT = { formattingOptions: { insertSpaces: true, tabSize: 2 } };

/** Cuts our PostToolUse group out as a user would in an editor: from the end of the group before it. */
function cutOurGroup(text: string): string {
  const groups = (parse(text) as { hooks: { PostToolUse: unknown[] } }).hooks.PostToolUse;
  const i = groups.findIndex((g) => JSON.stringify(g).includes('hook claude-code PostToolUse'));
  expect(i).toBeGreaterThan(0);
  const tree = parseTree(text)!;
  const prev = findNodeAtLocation(tree, ['hooks', 'PostToolUse', i - 1])!;
  const node = findNodeAtLocation(tree, ['hooks', 'PostToolUse', i])!;
  return text.slice(0, prev.offset + prev.length) + text.slice(node.offset + node.length);
}

describe('doctor on host files', () => {
  it('names a removed entry of ours (with the diff), and --fix puts back only that', () => {
    const installed = readFileSync(settings, 'utf8');
    // The user drops our entry and adds a setting of their own.
    const text = cutOurGroup(installed).replace('"model": "opus",\n', '"model": "opus",\n  "theme": "dark",\n');
    writeFileSync(settings, text);

    const { status, report } = doctor(h, ['--ide', 'claude-code']);
    expect(status).toBe(1);
    const drift = find(report, 'claude-code.drift');
    expect(drift.status).toBe('fail');
    expect(drift.evidence).toContain(settings);
    expect(drift.detail).toMatch(/^\+.*hook claude-code PostToolUse/m);
    expect(drift.fix).toContain('claude-mem doctor --fix');
    expect(find(report, 'claude-code.round-trip').status).toBe('fail');

    const fixed = doctor(h, ['--ide', 'claude-code', '--fix']);
    expect(fixed.report.fixed.map((f) => [f.id, f.ok])).toEqual([['claude-code.drift', true]]);
    expect(failing(fixed.report)).toEqual([]);
    expect(fixed.status).toBe(0);
    const after = readFileSync(settings, 'utf8');
    for (const mine of ['  // my settings\n  "model": "opus",\n', USER_GROUP, '"theme": "dark"']) expect(after).toContain(mine);
    // Cutting our entry out again gives back exactly the user's file: nothing else moved.
    expect(cutOurGroup(after)).toBe(text);
  }, 60_000);

  it('names a hook registered twice', () => {
    const before = readFileSync(settings, 'utf8');
    const doc = parse(before) as { hooks: Record<string, unknown[]> };
    const ours = doc.hooks.UserPromptSubmit.find((g) => JSON.stringify(g).includes('hook claude-code UserPromptSubmit'));
    writeFileSync(settings, applyEdits(before, modify(before, ['hooks', 'UserPromptSubmit', -1], ours, { ...FMT, isArrayInsertion: true })));
    const { report } = doctor(h, ['--ide', 'claude-code']);
    const twice = find(report, 'claude-code.double-registration');
    expect(twice.status).toBe('fail');
    expect(twice.evidence).toMatch(/UserPromptSubmit is registered 2 times/);
    writeFileSync(settings, before);
  }, 60_000);

  it('time-boxes a hook command that hangs, and says it timed out', () => {
    const before = readFileSync(settings, 'utf8');
    const hung = before.replace(/"('[^"]*' hook claude-code PostToolUse)"/, '"sleep 30; $1"');
    expect(hung).not.toBe(before);
    writeFileSync(settings, hung);
    const t0 = Date.now();
    const { report } = doctor(h, ['--ide', 'claude-code']);
    expect(Date.now() - t0).toBeLessThan(15_000);
    const trip = find(report, 'claude-code.round-trip');
    expect(trip.status).toBe('fail');
    expect(trip.evidence).toMatch(/^timed out: `sleep 30; .* hook claude-code PostToolUse` did not finish within 3000 ms/);
    writeFileSync(settings, before);
  }, 60_000);

  it('names a changed file that is wholly ours (a hooks file of its own), and --fix writes it again', () => {
    const file = join(h.home, '.copilot', 'hooks', 'claude-mem.json');
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, before.replace(/"postToolUse": \[[^\]]*\],?/, ''));
    const { status, report } = doctor(h, ['--ide', 'copilot']);
    expect(status).toBe(1);
    const drift = find(report, 'copilot.drift');
    expect(drift.status).toBe('fail');
    expect(drift.evidence).toContain(file);
    expect(drift.fix).toContain('claude-mem doctor --fix --ide copilot');
    expect(find(report, 'copilot.round-trip').status).toBe('fail');
    const fixed = doctor(h, ['--ide', 'copilot', '--fix']);
    expect(fixed.report.fixed.map((f) => [f.id, f.ok])).toEqual([['copilot.drift', true]]);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(fixed.status).toBe(0);
  }, 60_000);

  it('names an unparseable file with line and column, and --fix leaves it alone', () => {
    const file = join(h.home, '.cursor', 'hooks.json');
    const broken = readFileSync(file, 'utf8').replace(/\}\s*$/, ',,\n');
    writeFileSync(file, broken);
    const { status, report } = doctor(h, ['--ide', 'cursor']);
    expect(status).toBe(1);
    const parseCheck = find(report, 'cursor.parse');
    expect(parseCheck.status).toBe('fail');
    expect(parseCheck.evidence).toMatch(new RegExp(`${file.replace(/[.]/g, '\\.')}:\\d+:\\d+`));
    expect(parseCheck.fix).toMatch(/Fix the JSON at .*:\d+:\d+/);
    const fixed = doctor(h, ['--ide', 'cursor', '--fix']);
    expect(find(fixed.report, 'cursor.parse').status).toBe('fail');
    expect(readFileSync(file, 'utf8')).toBe(broken);
  }, 60_000);

  it('names the Codex hooks feature switched off, and --fix switches it back on', () => {
    const config = join(h.home, '.codex', 'config.toml');
    const text = readFileSync(config, 'utf8');
    expect(text).toContain('hooks = true');
    writeFileSync(config, `# mine\n${text.replace('hooks = true', 'hooks = false')}`);
    const { status, report } = doctor(h, ['--ide', 'codex']);
    expect(status).toBe(1);
    const feature = find(report, 'codex.hooks-feature');
    expect(feature.status).toBe('fail');
    expect(feature.evidence).toContain('hooks = false');
    expect(feature.fix).toContain('hooks = true');
    expect(failing(report)).toContain('codex.drift');
    const fixed = doctor(h, ['--ide', 'codex', '--fix']);
    expect(find(fixed.report, 'codex.hooks-feature').status).toBe('ok');
    expect(readFileSync(config, 'utf8')).toBe(`# mine\n${text}`);
  }, 60_000);
  it('warns of a host never heard from a week after install (probes do not count)', () => {
    const manifestPath = join(h.dataDir, 'install-manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { hosts: Record<string, { meta: { installedAt: string } }> };
    manifest.hosts.codex.meta.installedAt = new Date(Date.now() - 8 * 86_400_000).toISOString();
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
    const { status, report } = doctor(h, ['--ide', 'codex']);
    const quiet = find(report, 'codex.last-event');
    expect(quiet.status).toBe('warn');
    expect(quiet.evidence).toMatch(/no event ever captured, installed 8 days ago/);
    expect(quiet.fix).toContain('claude-mem doctor --ide codex');
    expect(status).toBe(0);
  }, 60_000);
});
