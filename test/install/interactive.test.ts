/** The interactive flow, driven through injected prompt functions (the real terminal is covered in pty.test.ts). */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { FIXTURES } from '../helpers/temp.js';
import { describe, expect, it } from 'vitest';
import { claudeCode } from '../../src/hosts/claude-code/claude-code-install.js';
import { codex } from '../../src/hosts/codex/codex-install.js';
import { cursor } from '../../src/hosts/cursor/cursor-install.js';
import { t3code } from '../../src/hosts/t3code/t3code-install.js';
import { CANCEL_EXIT, runInteractive, type Prompter } from '../../src/npx-cli/install/interactive.js';
import { prepare } from '../../src/npx-cli/install/install-plan.js';
import { cliEnv, seedHome, tempHome, treeHash } from './helpers.js';

const CANCEL = Symbol('cancel');

/** A scripted prompter: answers in order, records everything shown. */
function scripted(answers: unknown[]) {
  const shown: string[] = [];
  const asked: string[] = [];
  const next = async (kind: string, message: string) => {
    asked.push(`${kind}: ${message}`);
    if (answers.length === 0) throw new Error(`unexpected prompt ${kind}: ${message}`);
    return answers.shift();
  };
  const p: Prompter = {
    intro: (t) => shown.push(`intro ${t}`),
    outro: (m) => shown.push(`outro ${m}`),
    cancel: (m) => shown.push(`cancel ${m}`),
    note: (m, t) => shown.push(`note ${t}\n${m}`),
    isCancel: (v): v is symbol => v === CANCEL,
    multiselect: (o) => {
      shown.push(`multiselect ${o.options.map((x) => `${x.value}${o.initialValues.includes(x.value) ? '*' : ''}`).join(' ')}`);
      return next('multiselect', o.message) as never;
    },
    select: (o) => next('select', o.message) as never,
    spinner: () => ({ start: (m) => shown.push(`spin ${m ?? ''}`), stop: (m) => shown.push(`done ${m ?? ''}`) }),
    log: {
      info: (m) => shown.push(`info ${m}`), success: (m) => shown.push(`ok ${m}`), warn: (m) => shown.push(`warn ${m}`),
      error: (m) => shown.push(`error ${m}`), message: (m) => shown.push(m),
    },
  };
  return { p, shown, asked };
}

async function setup() {
  const t = tempHome();
  seedHome(t.home);
  const env = cliEnv(t.env, { PATH: '/usr/bin:/bin' });
  const prepared = await prepare(env, [claudeCode, codex, cursor, t3code]);
  let written = '';
  const opts = { start: false, codexSubagentTranscripts: false, env, write: (s: string) => (written += s) };
  return { ...t, env, prepared, opts, diff: () => written };
}

describe('interactive install (injected prompts)', () => {
  it('table of hosts, detected ones preselected, plan, diffs on request, install, honest summary', async () => {
    const s = await setup();
    const { p, shown, asked } = scripted([['claude-code', 'cursor'], 'diff', 'install']);
    const code = await runInteractive(s.prepared, p, s.opts);
    expect(code).toBe(0);
    const text = shown.join('\n');
    if (process.env.SHOW) console.log(text);
    expect(text).toMatch(/^intro claude-mem \d+\.\d+\.\d+/);
    expect(text).toMatch(/note 3 of 4 hosts found on this machine/);
    expect(text).toMatch(/Claude Code .*→ native hooks/);
    expect(text).toMatch(/T3 Code .*not found/);
    expect(shown.find((l) => l.startsWith('multiselect'))).toBe('multiselect claude-code* codex* cursor* t3code');
    expect(asked).toEqual(['multiselect: Which hosts should share memory? (space toggles, enter confirms)', 'select: Go ahead?', 'select: Go ahead?']);
    expect(text).toMatch(/note The plan\n● Claude Code \(native hooks\)\n {4}modify ~\/.claude\/settings.json/);
    expect(s.diff()).toContain(`--- ${join(s.home, '.claude', 'settings.json')}`);
    expect(text).toMatch(/ok Claude Code: ok/);
    expect(text).toMatch(/note Summary\n✓ Claude Code/);
    expect(text).toMatch(/Cursor also runs Claude Code's hooks/);
    expect(readFileSync(join(s.home, '.claude', 'settings.json'), 'utf8')).toContain(' hook claude-code ');
    expect(existsSync(join(s.home, '.codex', 'hooks.json'))).toBe(false); // not selected
  });

  for (const [name, answers] of [
    ['the host question', [CANCEL]],
    ['the go-ahead question', [['claude-code'], CANCEL]],
    ['the go-ahead question after viewing the diffs', [['claude-code'], 'diff', CANCEL]],
    ['the "Cancel" choice', [['claude-code'], 'cancel']],
  ] as const) {
    it(`cancelling at ${name} changes nothing and exits ${CANCEL_EXIT}`, async () => {
      const s = await setup();
      const before = treeHash(s.home);
      const { p, shown } = scripted([...answers]);
      expect(await runInteractive(s.prepared, p, s.opts)).toBe(CANCEL_EXIT);
      expect(shown.at(-1)).toBe('cancel Cancelled. Nothing was changed.');
      expect(treeHash(s.home)).toBe(before);
      expect(existsSync(s.dataDir)).toBe(false);
    });
  }

  it('selecting nothing changes nothing and exits 0', async () => {
    const s = await setup();
    const before = treeHash(s.home);
    const { p, shown } = scripted([[]]);
    expect(await runInteractive(s.prepared, p, s.opts)).toBe(0);
    expect(shown.at(-1)).toBe('outro No host selected. Nothing was changed.');
    expect(treeHash(s.home)).toBe(before);
  });

  it('--ide skips the host question; T3 Code alone is skipped with the reason', async () => {
    const s = await setup();
    const { p, shown, asked } = scripted(['install']);
    expect(await runInteractive(s.prepared, p, { ...s.opts, preselected: ['t3code'] })).toBe(0);
    expect(asked).toEqual(['select: Go ahead?']);
    expect(shown.join('\n')).toMatch(/– T3 Code: skipped — T3 Code has no capture of its own/);
  });

  it('Codex: the plan says its hooks will be trusted through codex app-server; the summary reports the outcome', async () => {
    const s = await setup();
    const { p, shown } = scripted([['codex'], 'install']);
    expect(await runInteractive(s.prepared, p, s.opts)).toBe(0);
    const text = shown.join('\n');
    expect(text).toMatch(/ask Codex \(codex app-server\) to trust these hooks/);
    // No codex on PATH here: said plainly.
    expect(text).toMatch(/Codex capture is OFF until the hooks are trusted: codex is not on PATH/);
  });
});

describe('interactive install: past sessions', () => {
  const claudeLog = () => {
    const dir = join(FIXTURES, 'claude-code', 'sessions');
    return join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl'))!);
  };
  const seedLog = (home: string, mtime = new Date()) => {
    const dir = join(home, '.claude', 'projects', '-home-dev-projects-demo');
    mkdirSync(dir, { recursive: true });
    const to = join(dir, basename(claudeLog()));
    copyFileSync(claudeLog(), to);
    utimesSync(to, mtime, mtime);
  };
  const prompts = (dataDir: string) => {
    const db = new Database(join(dataDir, 'claude-mem.db'), { readonly: true });
    try { return db.prepare('SELECT native_id FROM prompts').pluck().all(); } finally { db.close(); }
  };

  it('shows sessions and disk per host, imports the last 90 days by default', async () => {
    const s = await setup();
    seedLog(s.home);
    const { p, shown, asked } = scripted([['claude-code'], 'install', 'recent']);
    expect(await runInteractive(s.prepared, p, s.opts)).toBe(0);
    const text = shown.join('\n');
    expect(text).toMatch(/note Past sessions on this machine\nClaude Code: 1 session\(s\), 11 kB in the last 90 days \(1, 11 kB in all\)/);
    expect(asked.at(-1)).toBe('select: Import them into memory now?');
    expect(text).toMatch(/ok Imported 1 past session\(s\): 6 event\(s\) stored/);
    expect(prompts(join(s.home, '.claude-mem'))).toEqual(['64162777-60c7-4933-a462-396be60bfee1']);
  });

  it('"No" imports nothing; a session older than 90 days is only in "everything"', async () => {
    const s = await setup();
    seedLog(s.home, new Date(Date.now() - 200 * 86_400_000));
    const { p, shown } = scripted([['claude-code'], 'install', 'skip']);
    expect(await runInteractive(s.prepared, p, s.opts)).toBe(0);
    expect(shown.join('\n')).toMatch(/Claude Code: 0 session\(s\), 0 kB in the last 90 days \(1, 11 kB in all\)/);
    expect(existsSync(join(s.home, '.claude-mem', 'claude-mem.db')) ? prompts(join(s.home, '.claude-mem')) : []).toEqual([]);
    const again = scripted([['claude-code'], 'install', 'all']);
    expect(await runInteractive(s.prepared, again.p, s.opts)).toBe(0);
    expect(prompts(join(s.home, '.claude-mem'))).toHaveLength(1);
  });

  it('--no-import-history asks nothing about past sessions', async () => {
    const s = await setup();
    seedLog(s.home);
    const { p, asked } = scripted([['claude-code'], 'install']);
    expect(await runInteractive(s.prepared, p, { ...s.opts, importHistory: false })).toBe(0);
    expect(asked.join('\n')).not.toContain('Import them');
  });
});
