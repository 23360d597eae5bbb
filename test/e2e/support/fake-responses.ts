/**
 * A scripted OpenAI Responses API on 127.0.0.1 for driving the real Codex CLI offline (the way
 * test/fixtures/hosts/codex was captured). It streams Server-Sent Events and records every
 * request. It follows a ModelScript (model-script.ts): one scripted function call per request,
 * counted by the function_call_output items already in the input, then the final answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLocalServer } from '../../helpers/local-server.js';
import { randomBytes } from 'node:crypto';
import { nextCall, scriptFor, type ModelScript } from './model-script.js';

export interface RecordedResponsesRequest {
  method: string;
  url: string;
  body: unknown;
  text: string;
}

export interface FakeResponses {
  /** Base URL for `model_providers.<name>.base_url` (ends in /v1). */
  baseUrl: string;
  requests: RecordedResponsesRequest[];
  /** What the model does in each conversation (default: text only). */
  script: ModelScript;
  close(): Promise<void>;
}

const rid = (p: string) => `${p}_${randomBytes(8).toString('hex')}`;

function sse(res: ServerResponse, data: { type: string } & Record<string, unknown>): void {
  res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
}

function toolOutputCount(body: { input?: Array<{ type?: string }> }): number {
  return (body.input ?? []).filter((i) => i?.type === 'function_call_output').length;
}

type ToolSpec = { name?: string; type?: string; tools?: ToolSpec[] };

function offersTool(body: { tools?: ToolSpec[] }, name: string, namespace?: string): boolean {
  const scope = namespace ? (body.tools ?? []).find((t) => t?.type === 'namespace' && t.name === namespace)?.tools : body.tools;
  return (scope ?? []).some((t) => t?.name === name);
}

function stream(res: ServerResponse, item: Record<string, unknown>): void {
  const id = rid('resp');
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  sse(res, { type: 'response.created', response: { id, object: 'response', status: 'in_progress', output: [] } });
  sse(res, { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress' } });
  sse(res, { type: 'response.output_item.done', output_index: 0, item });
  sse(res, {
    type: 'response.completed',
    response: {
      id, object: 'response', status: 'completed', output: [item],
      usage: { input_tokens: 20, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 30 },
    },
  });
  res.end();
}

export async function startFakeResponses(): Promise<FakeResponses> {
  const fake: FakeResponses = { baseUrl: '', requests: [], script: scriptFor(), close: async () => {} };
  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // Not JSON: recorded as text.
    }
    fake.requests.push({ method: req.method ?? '', url: req.url ?? '', body, text });
    if (req.method === 'POST' && req.url?.endsWith('/responses')) {
      const next = fake.script.calls[toolOutputCount(body)];
      const call = nextCall(fake.script, (name) => offersTool(body, name, next?.namespace), toolOutputCount(body));
      if (call) {
        const ns = call.namespace ? { namespace: call.namespace } : {};
        return stream(res, { type: 'function_call', id: rid('fc'), call_id: rid('call'), name: call.name, ...ns, arguments: JSON.stringify(call.args), status: 'completed' });
      }
      return stream(res, { type: 'message', id: rid('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: fake.script.answer, annotations: [] }] });
    }
    if (req.url?.includes('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ object: 'list', data: [], models: [] }));
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
  };
  const server = await startLocalServer(handle);
  fake.baseUrl = `http://127.0.0.1:${server.port}/v1`;
  fake.close = server.close;
  return fake;
}
