/** Rows shared by the views: one observation (a tool call with its result and files), forget and pin actions. */
import type { Observation } from '../../../store/types.js';
import { fileList, h, time } from './dom.js';
import { postJson, WRITES } from './net.js';
import { confirmAction } from './confirm.js';

interface ActionTarget {
  /** What forget removes: observations by id, a whole session, or a search result set. */
  forget: Record<string, unknown>;
  /** Said in the confirmation. */
  what: string;
}

const COUNTED: [string, string][] = [
  ['sessions', 'session(s)'], ['observations', 'observation(s)'], ['prompts', 'prompt(s)'], ['assistantMessages', 'repl(ies)'],
  ['summaries', 'summar(ies) removed'], ['summariesRewritten', 'summar(ies) rewritten'], ['events', 'captured event(s)'], ['pins', 'pin(s)'],
];

/** What a dry run found, in words. */
function planText(counts: Record<string, number>): string {
  const parts = COUNTED.filter(([k]) => counts[k]).map(([k, w]) => `${counts[k]} ${w}`);
  return parts.length ? `This removes ${parts.join(', ')}.` : 'Nothing matches any more.';
}

/** A "Forget" button, when the worker can forget: a dry run says how much goes, then the user confirms. */
export function forgetButton(target: ActionTarget, done: () => void, label = 'Forget'): HTMLElement | null {
  if (!WRITES.has('forget')) return null;
  return h('button', {
    type: 'button', class: 'danger small', 'data-action': 'forget',
    onclick: async () => {
      const plan = await postJson<{ counts: Record<string, number> }>('forget', { ...target.forget, dryRun: true });
      const ok = await confirmAction(`Forget ${target.what}? ${planText(plan.counts)} This cannot be undone.`);
      if (!ok) return;
      await postJson('forget', { ...target.forget, dryRun: false });
      done();
    },
  }, label);
}

function pinButton(o: Pick<Observation, 'id'> & { pinned?: boolean }, done: (pinned: boolean) => void): HTMLElement | null {
  if (!WRITES.has('pin')) return null;
  const pinned = o.pinned === true;
  return h('button', {
    type: 'button', class: 'small', 'data-action': 'pin', 'aria-pressed': pinned ? 'true' : 'false',
    title: 'A pinned observation is always in its project\'s session-start context',
    onclick: async () => {
      await postJson('pin', { observationId: o.id, pinned: !pinned });
      done(!pinned);
    },
  }, pinned ? 'Unpin' : 'Pin');
}

export function observationRow(o: Observation & { pinned?: boolean }, refresh: () => void): HTMLElement {
  const files = [...o.filesModified.map((f) => `${f} (changed)`), ...o.filesRead];
  return h('article', { class: `row obs type-${o.type}${o.pinned ? ' pinned' : ''}`, tabindex: 0, 'data-id': o.id, 'data-kind': 'observation' },
    h('div', { class: 'row-head' },
      h('span', { class: 'type' }, o.type),
      h('strong', { class: 'title' }, o.title),
      o.toolName ? h('span', { class: 'muted' }, o.toolName) : null,
      time(o.createdAt),
      h('span', { class: 'muted' }, `#${o.id}`),
      h('span', { class: 'actions' }, pinButton(o, refresh), forgetButton({ forget: { observationIds: [o.id] }, what: `observation #${o.id}` }, refresh))),
    o.subtitle ? h('p', { class: 'subtitle' }, o.subtitle) : null,
    o.narrative ? h('pre', { class: 'narrative' }, o.narrative) : null,
    o.facts.length ? h('ul', { class: 'facts' }, o.facts.map((f) => h('li', {}, f))) : null,
    fileList(files));
}
