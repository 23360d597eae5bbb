/**
 * `claude-mem transcript watch | ingest | validate` at work. Loaded only when one of them runs:
 * the store, the schema validator and the watcher stay out of every other command.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dataDir, dataPaths } from '../../shared/paths.js';
import { openStore } from '../../store/sqlite-store.js';
import { parseJsonText, readConfigFile, validateConfig, validateSchema } from '../../transcripts/config.js';
import { compileSchema, type CompiledSchema } from '../../transcripts/engine.js';
import { ingestFiles } from '../../transcripts/ingest.js';
import { loadShippedSchemas } from '../../transcripts/shipped.js';
import type { TranscriptSchema } from '../../transcripts/types.js';
import { startTranscriptWatcher } from '../../transcripts/watcher.js';
import { CliError, eprintln, printJson, println, setExit, style, UsageError } from '../output.js';

interface CommonOpts { json?: boolean; config?: string }

export function validate(file: string | undefined, opts: CommonOpts): void {
  const r = validateFile(file ?? dataPaths(dataDir()).transcriptWatch);
  if (opts.json) printJson(r);
  else if (r.ok) println(`${style.green('valid')}: ${r.file} (${r.summary})`);
  else {
    eprintln(`${style.red('invalid')}: ${r.file}`);
    for (const e of r.errors) eprintln(`  - ${e}`);
  }
  setExit(r.ok ? 0 : 1);
}

export async function ingest(pattern: string, opts: CommonOpts & { schema: string; subagentOnly?: boolean }): Promise<void> {
  const schema = resolveSchema(opts.schema, opts.config);
  const paths = dataPaths(dataDir());
  const store = openStore(paths.db);
  try {
    const sum = await ingestFiles({
      store, schema, pattern, subagentOnly: opts.subagentOnly,
      onFile: opts.json ? undefined : (f, s) => println(`${f}: ${s.stored} stored, ${s.duplicates} already there, ${s.deadLetters} dead-lettered`),
    });
    if (opts.json) printJson({ ok: sum.failed.length === 0, ...sum });
    else {
      println(`${sum.files} file(s), ${sum.lines} line(s): ${sum.stored} event(s) stored, ${sum.duplicates} already there, ${sum.deadLetters} dead-lettered`);
      if (sum.files === 0) eprintln(`no file matches ${pattern}`);
      for (const f of sum.failed) eprintln(`${style.red('failed')}: ${f.file}: ${f.error}`);
    }
    setExit(sum.failed.length ? 1 : 0);
  } finally {
    store.close();
  }
}

export async function watch(opts: CommonOpts & { once?: boolean }): Promise<void> {
  const paths = dataPaths(dataDir());
  const configPath = opts.config ?? paths.transcriptWatch;
  if (!existsSync(configPath)) throw new CliError(`${configPath} not found: nothing to watch`);
  const first = readConfigFile(configPath, Object.keys(loadShippedSchemas().schemas));
  if (!first.ok) throw new CliError(`${configPath} is invalid:\n  - ${first.errors.join('\n  - ')}`);
  const store = openStore(paths.db);
  const log = {
    info: (m: string, d?: Record<string, unknown>) => eprintln(`${m}${d ? ` ${JSON.stringify(d)}` : ''}`),
    warn: (m: string, d?: Record<string, unknown>) => eprintln(`${style.yellow('warn')} ${m}${d ? ` ${JSON.stringify(d)}` : ''}`),
    error: (m: string, d?: Record<string, unknown>) => eprintln(`${style.red('error')} ${m}${d ? ` ${JSON.stringify(d)}` : ''}`),
  };
  const watcher = startTranscriptWatcher({ store, paths, log, options: { configPath } });
  try {
    if (opts.once) {
      await watcher.whenIdle(10 * 60_000);
    } else {
      eprintln(`watching (config ${configPath}, database ${paths.db}); Ctrl-C to stop`);
      const report = setInterval(() => {
        const s = watcher.status();
        eprintln(`${s.files.length} file(s), ${s.totals.eventsStored} event(s) stored, ${s.totals.deadLetters} dead-lettered${s.configError ? `; config rejected: ${s.configError}` : ''}`);
      }, 10_000);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      clearInterval(report);
    }
  } finally {
    await watcher.stop();
    const s = watcher.status();
    if (opts.json) printJson({ ok: !s.configError, ...s });
    else println(`${s.files.length} file(s) watched: ${s.totals.eventsStored} event(s) stored, ${s.totals.duplicates} already there, ${s.totals.deadLetters} dead-lettered`);
    store.close();
  }
}

export interface ValidateReport { ok: boolean; file: string; kind: 'config' | 'schema'; errors: string[]; summary?: string }

/** Validates a transcript-watch.json, or a single schema file (one with `events`). */
export function validateFile(file: string): ValidateReport {
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch (e) {
    return { ok: false, file, kind: 'config', errors: [(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (e as Error).message] };
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, file, kind: 'config', errors: parsed.errors };
  const value = parsed.value as Record<string, unknown> | null;
  if (value && typeof value === 'object' && 'events' in value && !('watches' in value)) {
    const v = validateSchema(value);
    return { ok: v.ok, file, kind: 'schema', errors: v.errors, summary: v.ok ? `schema for ${String(value.host)}, ${(value.events as unknown[]).length} event rule(s)` : undefined };
  }
  const shipped = loadShippedSchemas();
  const v = validateConfig(value, Object.keys(shipped.schemas));
  const errors = [...v.errors, ...shipped.errors];
  const watches = v.ok ? v.value.watches : [];
  return { ok: errors.length === 0, file, kind: 'config', errors, summary: `${watches.length} watch(es)${watches.length ? `: ${watches.map((w) => `${w.name} → ${w.schema}`).join(', ')}` : ''}` };
}

/** A schema by name (config first, then shipped) or from a schema file. */
function resolveSchema(name: string, configFile?: string): CompiledSchema {
  const configPath = configFile ?? dataPaths(dataDir()).transcriptWatch;
  if (existsSync(configPath)) {
    const c = readConfigFile(configPath, Object.keys(loadShippedSchemas().schemas));
    if (!c.ok && configFile) throw new CliError(`${configPath} is invalid:\n  - ${c.errors.join('\n  - ')}`);
    const own = c.ok ? c.value.schemas?.[name] : undefined;
    if (own) return compileSchema(name, own);
  }
  const shipped = loadShippedSchemas().schemas[name];
  if (shipped) return compileSchema(name, shipped);
  if (/[\\/]|\.json$/.test(name) && existsSync(name)) {
    const parsed = parseJsonText(readFileSync(name, 'utf8'));
    const v = parsed.ok ? validateSchema(parsed.value) : { ok: false as const, errors: parsed.errors };
    if (!v.ok) throw new CliError(`${name} is not a valid schema:\n  - ${v.errors.join('\n  - ')}`);
    return compileSchema(name, v.value as TranscriptSchema);
  }
  throw new UsageError(`unknown schema "${name}" (shipped: ${Object.keys(loadShippedSchemas().schemas).join(', ')})`);
}
