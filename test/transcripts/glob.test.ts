import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/transcripts/config.js';
import { defaultWatch, defaultWatchConfig } from '../../src/transcripts/defaults.js';
import { compileGlob, expandGlob, expandVars, globMatches } from '../../src/transcripts/glob.js';
import { loadShippedSchemas } from '../../src/transcripts/shipped.js';
import { tempDir } from '../helpers/temp.js';

describe('glob', () => {
  const env = { HOME: '/home/u', CODEX_HOME: '/opt/codex', EMPTY: '' };
  it('expands ~, $VAR, ${VAR} and ${VAR:-default}', () => {
    expect(expandVars('~/.codex/x', env)).toBe('/home/u/.codex/x');
    expect(expandVars('$CODEX_HOME/sessions', env)).toBe('/opt/codex/sessions');
    expect(expandVars('${CODEX_HOME}/s', env)).toBe('/opt/codex/s');
    expect(expandVars('${DSH_HOME:-~/.dsh}/sessions', env)).toBe('/home/u/.dsh/sessions');
    expect(expandVars('${EMPTY:-/fallback}/x', env)).toBe('/fallback/x');
  });
  it('matches *, ?, [..], {a,b} within a segment and ** across segments', () => {
    const g = compileGlob('${CODEX_HOME}/sessions/**/rollout-*.jsonl', env);
    expect(g.base).toBe('/opt/codex/sessions');
    expect(globMatches(g, '/opt/codex/sessions/rollout-1.jsonl')).toBe(true);
    expect(globMatches(g, '/opt/codex/sessions/2026/11/30/rollout-x.jsonl')).toBe(true);
    expect(globMatches(g, '/opt/codex/sessions/2026/rollout-x.json')).toBe(false);
    expect(globMatches(g, '/opt/codex/other/rollout-x.jsonl')).toBe(false);
    const d = compileGlob('/d/sessions/*/*/session.{jsonl,jsonl.zstd}', env);
    expect(globMatches(d, '/d/sessions/p/s/session.jsonl.zstd')).toBe(true);
    expect(globMatches(d, '/d/sessions/p/s/session.jsonl')).toBe(true);
    expect(globMatches(d, '/d/sessions/p/session.jsonl')).toBe(false);
    const c = compileGlob('/x/file-[0-9]?.log', env);
    expect(globMatches(c, '/x/file-1a.log')).toBe(true);
    expect(globMatches(c, '/x/file-ab.log')).toBe(false);
    expect(compileGlob('/x/plain.jsonl', env)).toMatchObject({ literal: true, base: '/x/plain.jsonl' });
  });
  it('walks only below the fixed prefix and returns files in a stable order', async () => {
    const root = tempDir('g');
    for (const rel of ['a/b/c/rollout-1.jsonl', 'a/rollout-2.jsonl', 'rollout-3.jsonl', 'a/b/notes.txt', 'z/rollout-4.jsonl.bak']) {
      mkdirSync(join(root, rel, '..'), { recursive: true });
      writeFileSync(join(root, rel), '');
    }
    const found = await expandGlob(compileGlob(`${root}/**/rollout-*.jsonl`));
    expect(found.map((f) => f.slice(root.length + 1))).toEqual(['a/b/c/rollout-1.jsonl', 'a/rollout-2.jsonl', 'rollout-3.jsonl']);
    expect(await expandGlob(compileGlob(`${root}/missing/**/*.jsonl`))).toEqual([]);
    expect(await expandGlob(compileGlob(`${root}/rollout-3.jsonl`))).toEqual([join(root, 'rollout-3.jsonl')]);
  });
});

describe('default watches (for the installer)', () => {
  it('come from the shipped schemas; Codex is subagentOnly by default (its hooks capture top-level sessions)', () => {
    const c = defaultWatchConfig(['codex', 'dsh', ['grok-bot', { name: 'grok' }]]);
    expect(c.watches).toEqual([
      { name: 'codex', path: '${CODEX_HOME:-~/.codex}/sessions/**/rollout-*.jsonl', schema: 'codex', startAtEnd: true, subagentOnly: true, managedBy: 'installer' },
      expect.objectContaining({ name: 'dsh', schema: 'dsh', subagentOnly: false }),
      expect.objectContaining({ name: 'grok', schema: 'grok-bot' }),
    ]);
    expect(validateConfig(c, Object.keys(loadShippedSchemas().schemas)).ok).toBe(true);
    expect(defaultWatch('codex', { subagentOnly: false }).subagentOnly).toBe(false);
  });
});
