/**
 * A scripted Anthropic Messages API on 127.0.0.1 for driving real hosts offline. It streams
 * Server-Sent Events like the real API (JSON when `stream` is false) and records every request.
 * It follows a ModelScript (model-script.ts): one scripted tool call per request, counted by the
 * tool results already in the conversation, then the final answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLocalServer } from '../../helpers/local-server.js';
import { randomBytes } from 'node:crypto';
import { nextCall, scriptFor, type ModelScript } from './model-script.js';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  /** The raw body text, for "does this request carry X" checks. */
  text: string;
  at: number;
}

export interface FakeAnthropic {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Requests to POST /v1/messages only. */
  messageRequests(): RecordedRequest[];
  /** What the model does in each conversation (default: text only). */
  script: ModelScript;
  close(): Promise<void>;
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

const id = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

interface MessagesBody {
  messages?: { content?: unknown }[];
  tools?: { name?: string }[];
}

function toolResultCount(body: MessagesBody): number {
  return (body.messages ?? []).reduce(
    (n, m) => n + (Array.isArray(m.content) ? m.content.filter((c: { type?: string }) => c?.type === 'tool_result').length : 0),
    0,
  );
}

const offers = (body: MessagesBody) => (name: string) => (body.tools ?? []).some((t) => t?.name === name);

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function streamMessage(res: ServerResponse, model: string, block: Block): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': id('req') });
  const usage = { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  sse(res, 'message_start', {
    type: 'message_start',
    message: { id: id('msg'), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage },
  });
  if (block.type === 'text') {
    sse(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: block.text } });
  } else {
    sse(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
    sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
  }
  sse(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
  sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: block.type === 'tool_use' ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

function jsonMessage(res: ServerResponse, model: string, block: Block): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({
    id: id('msg'), type: 'message', role: 'assistant', model, content: [block],
    stop_reason: block.type === 'tool_use' ? 'tool_use' : 'end_turn', stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  }));
}

export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  const state = { script: scriptFor() };
  const server = await startLocalServer((req, res, text) => {
    let body: Record<string, unknown> = {};
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // Recorded as text.
    }
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, text, at: Date.now() });
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'HEAD' || req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.method === 'GET' ? '{}' : undefined);
      return;
    }
    if (path === '/v1/messages/count_tokens') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: Math.ceil(text.length / 4) }));
      return;
    }
    if (path !== '/v1/messages') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no route ${path}` } }));
      return;
    }
    const model = typeof body.model === 'string' ? body.model : 'mock-model';
    const call = nextCall(state.script, offers(body as MessagesBody), toolResultCount(body as MessagesBody));
    const block: Block = call
      ? { type: 'tool_use', id: id('toolu'), name: call.name, input: call.args }
      : { type: 'text', text: state.script.answer };
    if (body.stream === true) streamMessage(res, model, block);
    else jsonMessage(res, model, block);
  });
  const port = server.port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    messageRequests: () => requests.filter((r) => r.method === 'POST' && r.url.split('?')[0] === '/v1/messages'),
    get script() {
      return state.script;
    },
    set script(v: ModelScript) {
      state.script = v;
    },
    close: server.close,
  };
}
