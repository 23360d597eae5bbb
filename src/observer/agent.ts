/** Task (subagent spawn) → `agent`; TodoWrite → a `tool` observation listing the plan. */
import type { CaptureEvent } from '../shared/capture-event.js';
import { buildDraft, didFail, durationFact } from './draft.js';
import { readOutput } from './output.js';
import type { ObservationDraft } from './types.js';
import { asRecord, clip, excerpt, inputRecord, pickNumber, pickString } from './text.js';

export function observeTask(e: CaptureEvent): ObservationDraft {
  const input = inputRecord(e.toolInput);
  const kind = pickString(input, 'subagent_type', 'agent_type', 'agent', 'type') ?? 'subagent';
  const description = pickString(input, 'description', 'title', 'name') ?? '';
  const prompt = pickString(input, 'prompt', 'task', 'message', 'instructions') ?? '';
  const out = readOutput(e.toolResponse);
  const resp = asRecord(e.toolResponse);
  const failed = didFail(e, undefined, out.failed);
  return buildDraft(e, {
    type: 'agent',
    title: `${failed ? 'Subagent failed' : 'Delegated to'} ${kind}${description || prompt ? `: ${clip(description || prompt, 80)}` : ''}`,
    subtitle: description ? clip(description, 200) : null,
    lines: [
      `Agent: ${kind}`,
      prompt && `Task:\n${excerpt(prompt, 500)}`,
      out.error && `Error: ${clip(out.error, 300)}`,
      out.text && `Result:\n${excerpt(out.text, 800)}`,
    ],
    facts: [
      `agent: ${kind}`,
      durationFact(out.durationMs),
      pickNumber(resp, 'totalTokens') !== undefined && `tokens: ${pickNumber(resp, 'totalTokens')}`,
      failed && 'failed',
    ],
    concepts: ['agent', ...(failed ? ['error'] : [])],
  });
}

interface Todo {
  text: string;
  status: string;
}

function todosOf(input: Record<string, unknown>): Todo[] {
  const list = input.todos ?? input.plan ?? input.items ?? input.tasks;
  if (!Array.isArray(list)) return [];
  return list.flatMap((t): Todo[] => {
    if (typeof t === 'string') return [{ text: t, status: '' }];
    const r = asRecord(t);
    if (!r) return [];
    const text = pickString(r, 'content', 'step', 'text', 'title', 'description', 'task') ?? '';
    return text ? [{ text, status: pickString(r, 'status', 'state') ?? '' }] : [];
  });
}

const MARK: Record<string, string> = { completed: '[x]', done: '[x]', in_progress: '[~]', inprogress: '[~]', pending: '[ ]' };

export function observeTodos(e: CaptureEvent): ObservationDraft {
  const todos = todosOf(inputRecord(e.toolInput));
  const done = todos.filter((t) => /^(completed|done)$/i.test(t.status)).length;
  const active = todos.find((t) => /^in.?progress$/i.test(t.status));
  return buildDraft(e, {
    type: 'tool',
    title: `Updated the plan (${todos.length} items, ${done} done)`,
    subtitle: active ? `now: ${clip(active.text, 150)}` : null,
    lines: todos.slice(0, 20).map((t) => `${MARK[t.status.toLowerCase()] ?? '-'} ${clip(t.text, 150)}`),
    facts: [`items: ${todos.length}`, `done: ${done}`, active && `in progress: ${active.text}`],
    concepts: ['plan'],
  });
}
