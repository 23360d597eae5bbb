import { describe, expect, it } from 'vitest';
import type { Change } from '../../src/npx-cli/engine/index.js';
import type { HostPlan } from '../../src/npx-cli/hosts/types.js';
import { planWriters, type PlannerInput } from '../../src/npx-cli/install/writer-planner.js';
import type { HostId } from '../../src/shared/hosts.js';
import { loadHostModules } from '../../src/npx-cli/hosts/modules.js';

const HOST_MODULES = await loadHostModules();

const WATCH = '/data/transcript-watch.json';

function plan(capture: HostPlan['capture'], changes: Partial<Change>[] = [], recall: HostPlan['recall'] = 'mcp'): HostPlan {
  return { capture, recall, changes: changes as Change[], nextSteps: [], notes: [] };
}

function input(plans: Partial<Record<HostId, HostPlan>>, extra: Partial<PlannerInput> = {}): PlannerInput {
  return {
    selected: Object.keys(plans) as HostId[],
    plans: new Map(Object.entries(plans) as Array<[HostId, HostPlan]>),
    installed: new Set(),
    transcriptWatchPath: WATCH,
    modules: new Map(HOST_MODULES.map((m) => [m.id, m])),
    codexSubagentTranscripts: false,
    codexSubagentWatch: () => ({ name: 'codex', path: '~/.codex/sessions/**/rollout-*.jsonl', schema: 'codex', subagentOnly: true }),
    ...extra,
  };
}

const hooksFile: Partial<Change> = { kind: 'json-array-upsert', file: '/h/.codex/hooks.json', host: 'codex', path: ['hooks', 'Stop'], match: [], entry: {} };
const watch = (host: string, entry: Record<string, unknown> = { name: host }): Partial<Change> => ({ kind: 'json-array-upsert', file: WATCH, host, path: ['watches'], match: [], entry });

describe('single-writer planner', () => {
  it('Codex: hooks capture top-level sessions; no transcript watch unless --codex-subagent-transcripts', async () => {
    const off = await planWriters(input({ codex: plan('hooks', [hooksFile, watch('codex', { name: 'codex', subagentOnly: false })]) }));
    expect(off.decisions.get('codex')!.capture).toBe('hooks');
    expect(off.changes.get('codex')!.map((c) => c.file)).toEqual(['/h/.codex/hooks.json']);
    expect(off.decisions.get('codex')!.detail.join('\n')).toMatch(/subagent sessions: not captured.*--codex-subagent-transcripts/);
  });

  it('Codex with the flag: the watch is kept and forced to subagent sessions only (or added when the module has none)', async () => {
    const kept = await planWriters(input({ codex: plan('hooks', [hooksFile, watch('codex', { name: 'codex', subagentOnly: false })]) }, { codexSubagentTranscripts: true }));
    const w = kept.changes.get('codex')!.find((c) => c.file === WATCH)!;
    expect((w as { entry: { subagentOnly: boolean } }).entry.subagentOnly).toBe(true);
    expect(kept.decisions.get('codex')!.capture).toBe('hooks');
    expect(kept.decisions.get('codex')!.overlaps).toEqual([expect.objectContaining({ with: 'codex:transcript' })]);

    const added = await planWriters(input({ codex: plan('hooks', [hooksFile]) }, { codexSubagentTranscripts: true }));
    const a = added.changes.get('codex')!.find((c) => c.file === WATCH)!;
    expect(a).toMatchObject({ kind: 'json-array-upsert', host: 'codex', path: ['watches'], entry: { subagentOnly: true, schema: 'codex' } });
  });

  it('a host captured by hooks or a plugin never also gets a transcript watch', async () => {
    const r = await planWriters(input({ grok: plan('hooks', [watch('grok')]), opencode: plan('plugin', [watch('opencode')]) }));
    expect(r.changes.get('grok')).toEqual([]);
    expect(r.changes.get('opencode')).toEqual([]);
    expect(r.decisions.get('grok')!.detail.join()).toMatch(/transcript watch left out/);
  });

  it('DeepSeek Harness: the transcript watch captures and the plugin only recalls', async () => {
    const r = await planWriters(input({ dsh: plan('transcript', [watch('dsh')], 'mcp+native-tools') }));
    expect(r.decisions.get('dsh')!.capture).toBe('transcript');
    expect(r.changes.get('dsh')).toHaveLength(1);
    expect(r.decisions.get('dsh')!.detail.join()).toMatch(/plugin only recalls/);
  });

  it('T3 Code is captured by its providers; without any, it is skipped with the reason', async () => {
    const alone = await planWriters(input({ t3code: plan('providers', [], 'providers') }));
    expect(alone.decisions.get('t3code')!.skip).toMatch(/Claude Code, Codex CLI.*neither is selected/);
    const withCodex = await planWriters(input({ t3code: plan('providers', [], 'providers'), codex: plan('hooks', [hooksFile]) }));
    expect(withCodex.decisions.get('t3code')!.skip).toBeUndefined();
    expect(withCodex.decisions.get('t3code')!.detail.join('\n')).toMatch(/providers it runs: Codex CLI/);
    // A provider installed by an earlier run counts too.
    const earlier = await planWriters(input({ t3code: plan('providers', [], 'providers') }, { installed: new Set(['claude-code']) }));
    expect(earlier.decisions.get('t3code')!.skip).toBeUndefined();
  });

  it('hosts that run Claude Code hooks: the overlap is recorded, resolved by caller identification', async () => {
    const r = await planWriters(input({ 'claude-code': plan('hooks'), cursor: plan('hooks'), grok: plan('hooks'), copilot: plan('hooks') }));
    expect(r.decisions.get('cursor')!.overlaps).toEqual([{ with: 'claude-code', resolution: expect.stringMatching(/caller identification/) }]);
    expect(r.decisions.get('grok')!.overlaps.map((o) => o.with)).toEqual(['claude-code', 'cursor']);
    expect(r.decisions.get('copilot')!.overlaps.map((o) => o.with)).toEqual(['claude-code']);
    expect(r.decisions.get('claude-code')!.detail.join('\n')).toMatch(/Cursor runs these hooks too/);
    // Without Claude Code there is nothing to resolve.
    expect((await planWriters(input({ cursor: plan('hooks') }))).decisions.get('cursor')!.overlaps).toEqual([]);
  });

  it('every selected host gets exactly one capture writer', async () => {
    const r = await planWriters(input({ 'claude-code': plan('hooks'), codex: plan('hooks'), dsh: plan('transcript'), pi: plan('plugin'), warp: plan('none') }));
    for (const d of r.decisions.values()) expect(typeof d.capture).toBe('string');
    expect([...r.decisions.keys()].sort()).toEqual(['claude-code', 'codex', 'dsh', 'pi', 'warp']);
  });
});
