/**
 * What a tool answered, whatever the host's shape: Claude Code `{stdout, stderr}`, Codex plain or
 * JSON-encoded strings, Gemini `{llmContent, returnDisplay}`, Copilot `{textResultForLlm}`,
 * OpenCode `{output, metadata.exit}`, Pi/OpenClaw content blocks, Cursor `{output, exit_code}`.
 */
import { asNumber, asRecord, asString, pickNumber, pickString } from './text.js';

interface ToolOutput {
  text: string;
  stderr: string;
  exitCode?: number;
  durationMs?: number;
  interrupted?: boolean;
  /** The response itself says the call failed (error flag, failure result type). */
  failed?: boolean;
  /** An error message the response carried. */
  error?: string;
}

const MAX_PARSE = 256 * 1024;

export function readOutput(resp: unknown, depth = 0): ToolOutput {
  if (resp === undefined || resp === null) return { text: '', stderr: '' };
  if (typeof resp === 'string') return readString(resp, depth);
  if (Array.isArray(resp)) return { text: blocksText(resp), stderr: '' };
  const o = asRecord(resp);
  if (!o || depth > 3) return { text: String(resp), stderr: '' };

  const out: ToolOutput = { text: '', stderr: asString(o.stderr) ?? '' };
  const meta = asRecord(o.metadata) ?? asRecord(o.details) ?? asRecord(asRecord(o.result)?.details);

  // The main text, by preference: clean display text, then raw output fields, then content blocks.
  const gemini = asString(o.llmContent);
  const main =
    asString(o.stdout) ??
    asString(o.returnDisplay) ??
    pickString(o, 'output', 'aggregated_output', 'aggregatedOutput', 'textResultForLlm', 'text_result_for_llm', 'text') ??
    asString(o.result) ??
    (typeof o.content === 'string' ? o.content : undefined);
  if (main !== undefined) {
    const inner = readString(main, depth + 1);
    out.text = inner.text;
    mergeFacts(out, inner);
  } else if (Array.isArray(o.content)) {
    out.text = blocksText(o.content);
  } else if (asRecord(o.result)) {
    const inner = readOutput(o.result, depth + 1);
    out.text = inner.text;
    mergeFacts(out, inner);
  } else if (asRecord(o.file)) {
    out.text = asString(asRecord(o.file)?.content) ?? '';
  } else if (gemini !== undefined) {
    out.text = cleanGemini(gemini);
  } else if (meta && typeof meta.output === 'string') {
    out.text = meta.output;
  }
  if (gemini !== undefined) mergeFacts(out, readString(gemini, depth + 1));
  if (!out.text && meta) out.text = pickString(meta, 'output', 'aggregated') ?? '';

  const code =
    pickNumber(o, 'exit_code', 'exitCode', 'exit', 'returncode', 'returnCode') ??
    pickNumber(meta, 'exit_code', 'exitCode', 'exit');
  if (code !== undefined) out.exitCode = code;
  const dur =
    pickNumber(o, 'duration_ms', 'durationMs', 'totalDurationMs') ??
    pickNumber(meta, 'duration_ms', 'durationMs') ??
    secondsToMs(pickNumber(o, 'duration_seconds', 'durationSeconds') ?? pickNumber(meta, 'duration_seconds')) ??
    codexDuration(o.duration);
  if (dur !== undefined) out.durationMs = dur;
  if (o.interrupted === true) out.interrupted = true;

  const resultType = pickString(o, 'resultType', 'result_type', 'status');
  if (o.is_error === true || o.isError === true || o.success === false || /^(failure|failed|error|denied|rejected)$/i.test(resultType ?? '')) {
    out.failed = true;
  }
  const err = typeof o.error === 'string' ? o.error : pickString(asRecord(o.error), 'message');
  if (err) {
    out.error = err;
    out.failed = true;
  }
  return out;
}

function mergeFacts(into: ToolOutput, from: ToolOutput): void {
  if (from.exitCode !== undefined && into.exitCode === undefined) into.exitCode = from.exitCode;
  if (from.durationMs !== undefined && into.durationMs === undefined) into.durationMs = from.durationMs;
  if (from.failed) into.failed = true;
  if (from.error && !into.error) into.error = from.error;
  if (from.stderr && !into.stderr) into.stderr = from.stderr;
}

function readString(s: string, depth: number): ToolOutput {
  const t = s.trimStart();
  // Codex (older releases) JSON-encodes `{output, metadata: {exit_code, duration_seconds}}`.
  if (depth < 3 && t.startsWith('{') && s.length <= MAX_PARSE) {
    try {
      const parsed = asRecord(JSON.parse(s));
      if (parsed && ('output' in parsed || 'stdout' in parsed || 'metadata' in parsed || 'exit_code' in parsed)) {
        return readOutput(parsed, depth + 1);
      }
    } catch {
      // Not JSON: plain text.
    }
  }
  return parseShellText(s);
}

/** Exit status and timing written into the text by Codex, Copilot and Gemini. */
function parseShellText(s: string): ToolOutput {
  const out: ToolOutput = { text: s, stderr: '' };
  // Codex unified exec: "Chunk ID: …\nWall time: 0.1 seconds\nProcess exited with code 0\n…\nOutput:\n<text>"
  const codex = /^(?:Chunk ID: [^\n]*\n)?Wall time: ([\d.]+) seconds\n(?:Process exited with code (-?\d+)\n)?[\s\S]{0,300}?Output:\n/.exec(s);
  if (codex) {
    out.durationMs = Math.round(Number(codex[1]) * 1000);
    if (codex[2] !== undefined) out.exitCode = Number(codex[2]);
    out.text = s.slice(codex[0].length);
    return out;
  }
  // Copilot: "<shellId: 0 completed with exit code 0>" on the last line. The plain searches
  // here and below skip a regex scan of every output that cannot match.
  const copilot = s.includes('<shellId: ') ? /\n?<shellId: [^>]{0,40}? with exit code (-?\d+)>\s*$/.exec(s) : null;
  if (copilot) {
    out.exitCode = Number(copilot[1]);
    out.text = s.slice(0, copilot.index);
    return out;
  }
  const gemini = s.includes('<untrusted_context>') ||
    ((s.includes('Command: ') || s.includes('Output: ')) && /^(?:Command: |Output: )/m.test(s));
  if (gemini) {
    const code = /^Exit Code: (-?\d+)/m.exec(s);
    if (code) out.exitCode = Number(code[1]);
    const err = /^Error: (.+)$/m.exec(s);
    if (err && err[1] !== '(none)') out.error = err[1];
    out.text = cleanGemini(s);
    return out;
  }
  const generic = /(?:exited with (?:exit )?code|exit code:?|exit status:?) (-?\d+)\s*\)?\s*$/i.exec(s.slice(-200));
  if (generic) out.exitCode = Number(generic[1]);
  return out;
}

/** Gemini wraps shell output: "<untrusted_context>\nOutput: …\nProcess Group PGID: n\n</untrusted_context>". */
function cleanGemini(s: string): string {
  let t = s.replace(/<\/?untrusted_context>/g, '');
  const m = /^Output: ?([\s\S]*?)(?=^(?:Error|Exit Code|Signal|Background PIDs|Process Group PGID): |$(?![\s\S]))/m.exec(t);
  if (m) t = m[1];
  return t.replace(/^Process Group PGID: .*$/m, '').trim();
}

function blocksText(blocks: unknown[]): string {
  const parts: string[] = [];
  for (const b of blocks) {
    if (typeof b === 'string') parts.push(b);
    const r = asRecord(b);
    if (!r) continue;
    const text = asString(r.text) ?? (typeof r.content === 'string' ? r.content : undefined);
    if (text) parts.push(text);
    else if (r.type === 'image') parts.push('[image]');
  }
  return parts.join('\n');
}

function secondsToMs(s: number | undefined): number | undefined {
  return s === undefined ? undefined : Math.round(s * 1000);
}

function codexDuration(v: unknown): number | undefined {
  const d = asRecord(v);
  if (!d) return asNumber(v);
  const secs = asNumber(d.secs) ?? 0;
  const nanos = asNumber(d.nanos) ?? 0;
  return Math.round(secs * 1000 + nanos / 1e6);
}
