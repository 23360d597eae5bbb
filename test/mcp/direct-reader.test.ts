// Reading the database file directly: nothing there yet, a seeded store, and saves next to readers.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DirectReader } from '../../src/mcp/direct-reader.js';
import { dataPaths } from '../../src/shared/paths.js';
import { projectFor } from '../../src/worker/project.js';
import { tempDir } from '../helpers/temp.js';
import { seed } from './stdio-helpers.js';

describe('DirectReader', () => {
  it('answers empty, without creating a database, when none exists yet', async () => {
    const paths = dataPaths(tempDir('data'));
    const r = new DirectReader(paths, () => 'proj');
    expect((await r.search({ query: 'x' })).value).toEqual({ results: [], project: null, widened: false });
    expect((await r.timeline({})).value).toEqual([]);
    expect((await r.getObservations([1])).value).toEqual([]);
    expect((await r.context({})).value).toMatchObject({ project: 'proj', text: '', observationIds: [] });
    expect(existsSync(paths.db)).toBe(false);
  });

  it('reads a seeded store read-only and saves read-write', async () => {
    const paths = dataPaths(tempDir('data'));
    const project = tempDir('proj');
    seed(paths.root, project);
    const r = new DirectReader(paths, () => projectFor(project));
    const hits = (await r.search({ query: 'xylophone' })).value.results.flatMap((x) => x.turns.flatMap((t) => t.evidence));
    expect(hits.length).toBeGreaterThan(0);
    const saved = await r.save({ text: 'okapi builds need --no-cache', project: projectFor(project), cwd: project });
    expect(saved.via).toBe('database');
    expect(saved.value.type).toBe('memory');
    const again = await r.getObservations([saved.value.id, hits[0].id]);
    expect(again.value.map((o) => o.id).sort()).toEqual([saved.value.id, hits[0].id].sort());
    const ctx = (await r.context({ project: projectFor(project), cwd: project })).value;
    expect(ctx.observationIds).toContain(saved.value.id);
  });
});
