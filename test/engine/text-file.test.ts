import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigConflictError, loadManifest, planChanges, type Change } from '../../src/npx-cli/engine/index.js';
import type { StoredFileChange } from '../../src/npx-cli/engine/types.js';
import { install, lifeCycle, read, setup, uninstall, write } from './helpers.js';

const block = (file: string, content: string, id = 'context'): Change => ({ kind: 'text-block', file, host: 'copilot', id, content });

describe('text-block', () => {
  const AGENTS = '# Team rules\n\nUse pnpm.\n';

  it('appends a marked block after a blank line and removes it exactly', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'copilot-instructions.md'), AGENTS);
    await lifeCycle(ctx, file, AGENTS, [block(file, 'Search memory with mem_search.\n')],
      '# Team rules\n\nUse pnpm.\n\n<!-- claude-mem:begin context -->\nSearch memory with mem_search.\n<!-- claude-mem:end context -->\n');
  });

  it('keeps CRLF and a missing final newline', async () => {
    const ctx = setup();
    const original = '# Rules\r\n\r\nBe brief.';
    const file = write(join(ctx.dir, 'WARP.md'), original);
    await lifeCycle(ctx, file, original, [block(file, 'line one\nline two')],
      '# Rules\r\n\r\nBe brief.\r\n\r\n<!-- claude-mem:begin context -->\r\nline one\r\nline two\r\n<!-- claude-mem:end context -->');
  });

  it('updates the block in place, keeps the user\'s text around it, and removes only the block', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'AGENTS.md'), AGENTS);
    await install(ctx, [block(file, 'v1')]);
    write(file, `${read(file)}\n## Added later\n`);
    await install(ctx, [block(file, 'v2\nmore')]);
    expect(read(file)).toBe('# Team rules\n\nUse pnpm.\n\n<!-- claude-mem:begin context -->\nv2\nmore\n<!-- claude-mem:end context -->\n\n## Added later\n');
    await uninstall(ctx);
    expect(read(file)).toBe(`${AGENTS}\n## Added later\n`);
  });

  it('uses # markers for other text files', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'notes.txt'), 'x\n');
    await lifeCycle(ctx, file, 'x\n', [block(file, 'y')], 'x\n\n# claude-mem:begin context\ny\n# claude-mem:end context\n');
  });

  it('refuses a begin marker without its end marker', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'AGENTS.md'), 'a\n<!-- claude-mem:begin context -->\nb\n');
    const [plan] = await planChanges([block(file, 'c')]);
    expect(plan.error).toBeInstanceOf(ConfigConflictError);
    expect(plan.error!.fix).toContain('<!-- claude-mem:end context -->');
  });

  it('creates a missing file and deletes it (not leaving it empty) on uninstall', async () => {
    const ctx = setup();
    const file = join(ctx.dir, '.roo', 'rules', 'claude-mem.md');
    await lifeCycle(ctx, file, null, [block(file, 'hello')], '<!-- claude-mem:begin context -->\nhello\n<!-- claude-mem:end context -->\n');
    expect(existsSync(join(ctx.dir, '.roo'))).toBe(false);
  });
});

describe('file', () => {
  const plugin = (file: string, content = 'export default {};\n', mode?: number): Change => ({ kind: 'file', file, host: 'opencode', content, ...(mode !== undefined && { mode }) });

  it('creates a file with its mode and folders, and removes them on uninstall', async () => {
    const ctx = setup();
    const file = join(ctx.dir, 'plugins', 'claude-mem', 'index.js');
    const { first } = await lifeCycle(ctx, file, null, [plugin(file, '#!/usr/bin/env node\n', 0o755)], '#!/usr/bin/env node\n');
    expect(first.plan[0].mode).toBe(0o755);
    expect(existsSync(join(ctx.dir, 'plugins'))).toBe(false);
  });

  it('sets the mode on create', async () => {
    const ctx = setup();
    const file = join(ctx.dir, 'hook.sh');
    await install(ctx, [plugin(file, 'x', 0o750)]);
    expect(statSync(file).mode & 0o777).toBe(0o750);
  });

  it('leaves a file the user changed after install, and says so', async () => {
    const ctx = setup();
    const file = join(ctx.dir, 'claude-mem.js');
    await install(ctx, [plugin(file)]);
    write(file, 'export default { mine: true };\n');
    const r = await uninstall(ctx);
    expect(read(file)).toBe('export default { mine: true };\n');
    expect(r.files[0].notes).toEqual(['changed after install; left as is']);
  });

  it('keeps a whole file in the manifest by digest and size, not its text; readers still get the text while it is unchanged', async () => {
    const ctx = setup();
    const file = join(ctx.dir, 'plugins', 'claude-mem.js');
    const content = `// plugin\n${'x'.repeat(50_000)}\n`;
    await install(ctx, [plugin(file, content)]);
    const raw = read(ctx.manifestPath);
    expect(raw.length).toBeLessThan(5_000);
    expect(raw).not.toContain('xxxxxxxxxx');
    const recorded = () => loadManifest(ctx.manifestPath).hosts.opencode.files[file].changes[0].change as StoredFileChange;
    expect(recorded()).toMatchObject({ kind: 'file', sha256: createHash('sha256').update(content).digest('hex'), size: Buffer.byteLength(content) });
    expect(recorded().content).toBe(content);
    write(file, 'mine\n');
    expect(recorded().content).toBeUndefined();
  });

  it('re-planning a recorded whole file: a no-op while unchanged; once changed, refused with the way to write it again', async () => {
    const ctx = setup();
    const file = join(ctx.dir, 'claude-mem.js');
    await install(ctx, [plugin(file)]);
    const recorded = (): Change[] => Object.entries(loadManifest(ctx.manifestPath).hosts.opencode.files)
      .flatMap(([f, e]) => e.changes.map((r) => ({ ...r.change, file: f, host: 'opencode' }) as Change));
    const same = await planChanges(recorded());
    expect(same[0]).toMatchObject({ changed: false, diff: '' });
    expect(same[0].error).toBeUndefined();
    write(file, 'mine\n');
    const changed = await planChanges(recorded());
    expect(changed[0].error).toBeInstanceOf(ConfigConflictError);
    expect(changed[0].error!.fix).toContain('claude-mem install --ide opencode');
    expect(read(file)).toBe('mine\n');
  });

  it('uninstalls from an older manifest that kept the whole text, and compacts it on the next write', async () => {
    const ctx = setup();
    const file = join(ctx.dir, 'claude-mem.js');
    const other = join(ctx.dir, 'other.js');
    await install(ctx, [plugin(file), { ...plugin(other), host: 'pi' }]);
    const m = JSON.parse(read(ctx.manifestPath)) as { hosts: Record<string, { files: Record<string, { changes: Array<{ change: Record<string, unknown> }> }> }> };
    for (const h of Object.values(m.hosts)) for (const f of Object.values(h.files)) for (const r of f.changes) r.change = { kind: 'file', content: 'export default {};\n' };
    write(ctx.manifestPath, JSON.stringify(m, null, 2));
    await uninstall(ctx, ['opencode']);
    expect(existsSync(file)).toBe(false);
    expect(loadManifest(ctx.manifestPath).hosts.pi.files[other].changes[0].change).toMatchObject({ kind: 'file', sha256: expect.any(String), size: 19 });
    expect(read(ctx.manifestPath)).not.toContain('export default');
    await uninstall(ctx);
    expect(existsSync(other)).toBe(false);
  });

  it('puts back a file it replaced, from the backup', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'claude-mem.js'), 'old plugin\n');
    chmodSync(file, 0o600);
    await install(ctx, [plugin(file)]);
    expect(read(file)).toBe('export default {};\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(ctx.backupsDir)).toHaveLength(1);
    await uninstall(ctx);
    expect(read(file)).toBe('old plugin\n');
  });
});
