/** The exact text the next session in a project receives at SessionStart (the same builder and budget). */
import type { ContextResult } from '../../../store/types.js';
import type { ViewerProject } from '../../../store/viewer-reads.js';
import { empty, h, link, replace } from './dom.js';
import { getJson } from './net.js';

export async function renderContext(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const { projects } = await getJson<{ projects: ViewerProject[] }>('projects');
  const project = params.get('project') || projects[0]?.project || '';
  const select = h('select', { id: 'context-project', onchange: () => (location.hash = `#/context?project=${encodeURIComponent(select.value)}`) },
    projects.map((p) => h('option', { value: p.project, selected: p.project === project }, p.project)));
  replace(main, h('h1', {}, 'What the next session receives'),
    h('p', { class: 'muted' }, 'This is what SessionStart injects into the next session started in the project: it is why the agent “remembers”. Pinned observations are always in it.'),
    projects.length ? h('label', {}, 'Project ', select) : empty('No project has memory yet.'));
  if (!project) return;
  const { context, maxTokens } = await getJson<{ context: ContextResult; maxTokens: number | null }>('context', { project });
  main.append(...[
    h('p', { class: 'muted', id: 'context-figures' }, `about ${context.approxTokens} tokens of a budget of ${maxTokens ?? 1500}; ${context.observationIds.length} observation(s), ${context.sessionIds?.length ?? 0} past session(s)`),
    context.text ? h('pre', { class: 'context', id: 'context-text', tabindex: 0 }, context.text) : empty('Nothing: a new session in this project starts without memory.'),
    context.observationIds.length ? h('p', { class: 'muted' }, 'Observations in it: ', context.observationIds.map((id) => h('span', {}, `#${id} `))) : null,
    h('p', {}, link(`#/sessions?project=${encodeURIComponent(project)}`, 'Sessions of this project')),
  ].filter((x): x is HTMLElement => x !== null));
}
