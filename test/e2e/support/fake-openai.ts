/**
 * A scripted OpenAI Chat Completions API on 127.0.0.1 for driving real hosts offline through an
 * OpenAI-compatible provider (OpenCode's `@ai-sdk/openai-compatible`, the way
 * test/fixtures/hosts/opencode was captured). It streams Server-Sent Events like the real API
 * (or answers JSON when `stream` is false) and records every request. For the Responses API see
 * fake-responses.ts.
 *
 * It follows a ModelScript (model-script.ts): one scripted tool call per request, counted by the
 * `role: tool` messages already in the conversation, then the final answer (also the answer to
 * side requests such as titles, which offer no tools).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLocalServer } from '../../helpers/local-server.js';
import { randomBytes } from 'node:crypto';
import { nextCall, scriptFor, type ModelScript } from './model-script.js';

export interface RecordedChatRequest {
  method: string;
  url: string;
  body: ChatBody;
  /** The raw body text, for "does this request carry X" checks. */
  text: string;
  at: number;
}

export interface ChatMessage {
  role?: string;
  content?: unknown;
  tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[];
  tool_call_id?: string;
}

export interface ChatBody {
  model?: string;
  stream?: boolean;
  messages?: ChatMessage[];
  tools?: { type?: string; function?: { name?: string } }[];
}

export interface FakeOpenAI {
  /** Base URL for the provider's `baseURL` (ends in /v1). */
  baseUrl: string;
  requests: RecordedChatRequest[];
  /** POST /v1/chat/completions only. */
  chatRequests(): RecordedChatRequest[];
  /** What the model does in each conversation (default: text only). */
  script: ModelScript;
  close(): Promise<void>;
}

const rid = (p: string) => `${p}_${randomBytes(6).toString('hex')}`;

export function offersTool(body: ChatBody, name: string): boolean {
  return (body.tools ?? []).some((t) => t?.function?.name === name);
}

function toolResultCount(body: ChatBody): number {
  return (body.messages ?? []).filter((m) => m?.role === 'tool').length;
}

/** The text of every `role: tool` message, in order. */
export function toolResults(body: ChatBody): string[] {
  return (body.messages ?? []).filter((m) => m?.role === 'tool').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

/** The text of every system message, in order. */
export function systemTexts(body: ChatBody): string[] {
  return (body.messages ?? []).filter((m) => m?.role === 'system').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

type Reply = { kind: 'text'; text: string } | { kind: 'tool'; id: string; name: string; args: string };

function chunk(res: ServerResponse, id: string, model: string, delta: Record<string, unknown>, finish: string | null): void {
  const data = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }] };
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

function streamReply(res: ServerResponse, model: string, reply: Reply): void {
  const id = rid('chatcmpl');
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  chunk(res, id, model, { role: 'assistant', content: '' }, null);
  if (reply.kind === 'text') {
    chunk(res, id, model, { content: reply.text }, null);
    chunk(res, id, model, {}, 'stop');
  } else {
    chunk(res, id, model, { tool_calls: [{ index: 0, id: reply.id, type: 'function', function: { name: reply.name, arguments: '' } }] }, null);
    chunk(res, id, model, { tool_calls: [{ index: 0, function: { arguments: reply.args } }] }, null);
    chunk(res, id, model, {}, 'tool_calls');
  }
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [], usage })}\n\n`);
  res.write('data: [DONE]\n\n');
  res.end();
}

function jsonReply(res: ServerResponse, model: string, reply: Reply): void {
  const message = reply.kind === 'text'
    ? { role: 'assistant', content: reply.text }
    : { role: 'assistant', content: null, tool_calls: [{ id: reply.id, type: 'function', function: { name: reply.name, arguments: reply.args } }] };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({
    id: rid('chatcmpl'), object: 'chat.completion', created: Math.floor(Date.now() / 1000), model,
    choices: [{ index: 0, message, finish_reason: reply.kind === 'text' ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  }));
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const fake: FakeOpenAI = {
    baseUrl: '',
    requests: [],
    chatRequests: () => fake.requests.filter((r) => r.method === 'POST' && r.url.split('?')[0].endsWith('/chat/completions')),
    script: scriptFor(),
    close: async () => {},
  };
  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    let body: ChatBody = {};
    try {
      body = text ? (JSON.parse(text) as ChatBody) : {};
    } catch {
      // Recorded as text.
    }
    fake.requests.push({ method: req.method ?? '', url: req.url ?? '', body, text, at: Date.now() });
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'POST' && path.endsWith('/chat/completions')) {
      const model = typeof body.model === 'string' ? body.model : 'mock-model';
      const call = nextCall(fake.script, (name) => offersTool(body, name), toolResultCount(body));
      const reply: Reply = call
        ? { kind: 'tool', id: rid('call'), name: call.name, args: JSON.stringify(call.args) }
        : { kind: 'text', text: fake.script.answer };
      if (body.stream === true) streamReply(res, model, reply);
      else jsonReply(res, model, reply);
      return;
    }
    if (req.method === 'GET' && path.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'mock-model', object: 'model', owned_by: 'local' }] }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } }));
  };
  const server = await startLocalServer(handle);
  fake.baseUrl = `http://127.0.0.1:${server.port}/v1`;
  fake.close = server.close;
  return fake;
}
