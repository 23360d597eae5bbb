import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { register } from '../../src/npx-cli/commands/transcript.js';
import { validateConfig, validateSchema } from '../../src/transcripts/config.js';
import { loadShippedSchemas } from '../../src/transcripts/shipped.js';
import { tempDir } from '../helpers/temp.js';

const SHIPPED = Object.keys(loadShippedSchemas().schemas);

const BROKEN = {
  schemas: {
    codex: {
      host: 'codex',
      events: [
        { match: { path: 'type', equals: 'session_meta' }, action: 'session_init', fields: { sessionId: 'payload.id', prompt: 'x' } },
        { match: { path: 'type', equals: 'x' }, action: 'user_message', fields: {} },
        { match: { path: 'type', equals: 'y', regex: 'z' }, action: 'assistant_message', fields: { message: 'a..b' } },
        { match: { all: [{ path: 'type', equals: 'response_item' }, { path: 'payload.text', regex: '(unclosed' }] }, action: 'user_message', fields: { prompt: 'payload.text' } },
        { match: { any: [] }, action: 'tool_use', fields: { toolName: { coalesce: [] }, toolInput: { path: 'a', parse: 'yaml' } } },
        { match: { not: { path: 'a', starts_with: 5 } }, action: 'observation', fields: { title: 'a' }, each: 'x[' },
      ],
    },
    bad: { host: 'nohost', ignoreTools: ['(('], events: [{ action: 'fly' }] },
  },
  watches: [
    { name: 'w', path: '~/x/**/*.jsonl', schema: 'codx' },
    { name: 'w', path: 3, schema: 'dsh', startAtEnd: 'yes' },
    { path: 'x', schema: 'dsh', extra: 1 },
  ],
  options: { pollIntervalMs: 1 },
};

describe('transcript-watch.json validation', () => {
  const r = validateConfig(BROKEN, SHIPPED);
  const errors = r.ok ? [] : r.errors;
  const has = (prefix: string, re: RegExp) => expect(errors.some((e) => e.startsWith(`${prefix}: `) && re.test(e)), `${prefix} ${re} in\n${errors.join('\n')}`).toBe(true);

  it('reports every error, each with its exact path', () => {
    expect(r.ok).toBe(false);
    has('schemas.codex.events[3].match.all[1].regex', /invalid regex/);
    has('watches[0].schema', /unknown schema "codx" \(known: (.*, )?codex, (.*, )?dsh, (.*, )?grok-bot, (.*, )?bad\)/);
    has('watches[1].name', /duplicate watch name "w"/);
    has('watches[1].path', /expected string/);
    has('watches[1].startAtEnd', /expected boolean/);
    has('watches[2].name', /expected string/);
    has('watches[2]', /Unrecognized key: "extra"/);
    has('schemas.codex.events[0].fields.prompt', /not a field of session_init/);
    has('schemas.codex.events[1].fields', /user_message needs "prompt"/);
    has('schemas.codex.events[2].match', /one operator per rule/);
    has('schemas.codex.events[2].fields.message', /empty segment/);
    has('schemas.codex.events[4].match.any', /non-empty array/);
    has('schemas.codex.events[4].fields.toolName.coalesce', /non-empty array/);
    has('schemas.codex.events[4].fields.toolInput.parse', /only "json"/);
    has('schemas.codex.events[5].match.not.starts_with', /string or a non-empty array/);
    has('schemas.codex.events[5].each', /unclosed/);
    has('schemas.bad.host', /Invalid option/);
    has('schemas.bad.ignoreTools[0]', /invalid regex/);
    has('schemas.bad.events[0].action', /Invalid option/);
    has('options.pollIntervalMs', /too small|>=/);
    expect(errors.length).toBeGreaterThanOrEqual(20);
  });

  it('accepts the shipped schemas and a minimal config', () => {
    expect(loadShippedSchemas().errors).toEqual([]);
    for (const [name, s] of Object.entries(loadShippedSchemas().schemas)) expect(validateSchema(s).ok, name).toBe(true);
    const ok = validateConfig({ watches: [{ name: 'codex', path: '${CODEX_HOME:-~/.codex}/sessions/**/*.jsonl', schema: 'codex', startAtEnd: true, subagentOnly: true, managedBy: 'installer' }] }, SHIPPED);
    expect(ok).toMatchObject({ ok: true, errors: [] });
  });

  it('names a key that is not an identifier in brackets', () => {
    const r2 = validateConfig({ schemas: { 'my schema': { host: 'codex', events: [] } }, watches: [] }, SHIPPED);
    expect(r2.ok ? [] : r2.errors).toContain('schemas["my schema"].events: Too small: expected array to have >=1 items');
  });
});

describe('claude-mem transcript validate', () => {
  afterEach(() => { process.exitCode = undefined; vi.restoreAllMocks(); });

  async function cli(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => { out.push(String(s)); return true; });
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => { err.push(String(s)); return true; });
    const program = new Command('claude-mem').exitOverride();
    register(program);
    await program.parseAsync(['transcript', ...args], { from: 'user' });
    const code = process.exitCode;
    vi.restoreAllMocks();
    return { out: out.join(''), err: err.join(''), code };
  }

  it('exits 1 and lists every error of an invalid file', async () => {
    const dir = tempDir('validate');
    const file = join(dir, 'transcript-watch.json');
    writeFileSync(file, JSON.stringify(BROKEN, null, 2));
    const r = await cli(['validate', file]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('schemas.codex.events[3].match.all[1].regex: invalid regex');
    expect(r.err).toContain('watches[0].schema: unknown schema "codx"');
    expect(r.err.split('\n').filter((l) => l.startsWith('  - ')).length).toBeGreaterThanOrEqual(20);
  });

  it('reports JSON syntax errors with line and column, and passes a valid file (default: the data dir)', async () => {
    const dir = tempDir('validate');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{\n  "watches": [\n    { "name": "x" \n  ]\n}');
    const r1 = await cli(['validate', bad]);
    expect(r1.code).toBe(1);
    expect(r1.err).toMatch(/line \d+, column \d+/);

    const dataDir = process.env.CLAUDE_MEM_DATA_DIR!;
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'transcript-watch.json'), JSON.stringify({ watches: [{ name: 'dsh', path: '~/.dsh/sessions/**/session.jsonl', schema: 'dsh' }] }));
    const r2 = await cli(['validate']);
    expect(r2.code).toBe(0);
    expect(r2.out).toContain('valid');
    expect(r2.out).toContain('dsh → dsh');
    const r3 = await cli(['validate', '--json']);
    expect(JSON.parse(r3.out)).toMatchObject({ ok: true, kind: 'config', errors: [] });
  });

  it('validates a single schema file too', async () => {
    const dir = tempDir('validate');
    const file = join(dir, 'schema.json');
    writeFileSync(file, JSON.stringify({ host: 'codex', events: [{ action: 'user_message', fields: { prompt: 'x[' } }] }));
    const r = await cli(['validate', file]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('events[0].fields.prompt: unclosed');
  });
});
