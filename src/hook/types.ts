/** The contract between the hook runtime (main.ts) and the per-host adapters (adapters/<host>.ts). */
import type { CaptureEvent } from '../shared/capture-event.js';
import type { HookHostId, HostId } from '../shared/hosts.js';
import type { Env } from '../shared/paths.js';

export interface HookInput {
  /** The host named on the command line (`claude-mem hook <host> <event>`). */
  host: HookHostId;
  /** The event name as the host spells it, from the command line. */
  event: string;
  /** Parsed stdin; undefined when stdin was empty, a TTY or not a JSON object. */
  payload: Record<string, unknown> | undefined;
  /** Raw stdin text (Kimi and others may send plain text; adapters may ignore it). */
  rawStdin: string;
  env: Env;
  /** ISO capture time, set once. */
  now: string;
}

export interface AdapterResult {
  /** Normalized events to store (0 or more). Privacy is applied by the runtime, not adapters. */
  events: CaptureEvent[];
  /** True when the host waits for context on this event (session start, prompt submit where supported). */
  wantsContext: boolean;
  /** The event name actually used (the payload's own, when it names one and disagrees). */
  resolvedEvent: string;
  /** Diagnostics for the debug log (mismatches, dropped fields, identified caller). */
  notes: string[];
  /** Set when the event must not be stored by this invocation (e.g. another host's writer owns it). */
  dropReason?: string;
  /**
   * The session the payload names, once validated: context is asked for it even when this event
   * stores nothing (Kimi Code's UserPromptSubmit, whose prompt TurnStarted writes).
   */
  session?: { host: HostId; sessionId: string; cwd: string };
  /** The host reads memory only once per session on this event (Grok's PostToolUse). */
  contextOnce?: boolean;
  /** The submitted prompt's text when this event asks for context but stores no prompt (Kimi Code). */
  contextPrompt?: string;
}

export interface HookAdapter {
  host: HookHostId;
  /** Event names this adapter understands, spelled as the host spells them. */
  events: readonly string[];
  normalize(input: HookInput): AdapterResult;
  /**
   * What to print on stdout for this event: context in the host's own format, or the host's
   * neutral "continue" answer. Returns '' to print nothing. Never a blocking answer.
   */
  formatOutput(event: string, context: string): string;
}
