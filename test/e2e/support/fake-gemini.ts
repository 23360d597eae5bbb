/**
 * A scripted Gemini API (generativelanguage `v1beta`) on 127.0.0.1 for driving Gemini CLI offline
 * through `GOOGLE_GEMINI_BASE_URL`, the way test/fixtures/hosts/gemini-cli was captured. It
 * answers `models/<model>:streamGenerateContent?alt=sse` with Server-Sent Events (one
 * GenerateContentResponse per `data:` line), `:generateContent` with JSON and `:countTokens` with a
 * rough count, and records every request.
 *
 * It follows a ModelScript (model-script.ts): one scripted function call per request, counted by
 * the functionResponse parts already in the conversation, then the final answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLocalServer } from '../../helpers/local-server.js';
import { nextCall, scriptFor, type ModelScript } from './model-script.js';

export interface GeminiPart {
  text?: string;
  functionCall?: { name?: string; args?: Record<string, unknown>; id?: string };
  functionResponse?: { name?: string; id?: string; response?: Record<string, unknown> };
}

export interface GeminiContent {
  role?: string;
  parts?: GeminiPart[];
}

export interface GeminiBody {
  contents?: GeminiContent[];
  systemInstruction?: GeminiContent | string;
  tools?: { functionDeclarations?: { name?: string }[] }[];
  generationConfig?: Record<string, unknown>;
}

export interface RecordedGeminiRequest {
  method: string;
  url: string;
  /** `streamGenerateContent`, `generateContent`, `countTokens`, … (the part after the colon). */
  action: string;
  body: GeminiBody;
  /** The raw body text, for "does this request carry X" checks. */
  text: string;
  at: number;
}

export interface FakeGemini {
  /** For GOOGLE_GEMINI_BASE_URL (no path: the client adds `/v1beta/...`). */
  baseUrl: string;
  requests: RecordedGeminiRequest[];
  /** The model turns: streamGenerateContent and generateContent requests. */
  generateRequests(): RecordedGeminiRequest[];
  /** What the model does in each conversation (default: text only). */
  script: ModelScript;
  close(): Promise<void>;
}

export function declaresFunction(body: GeminiBody, name: string): boolean {
  return (body.tools ?? []).some((t) => (t?.functionDeclarations ?? []).some((f) => f?.name === name));
}

function functionResponseCount(body: GeminiBody): number {
  return (body.contents ?? []).reduce((n, c) => n + (c?.parts ?? []).filter((p) => p?.functionResponse !== undefined).length, 0);
}

/** Every text part of the user turns, in order. */
export function userTexts(body: GeminiBody): string[] {
  return (body.contents ?? []).filter((c) => c?.role === 'user').flatMap((c) => (c.parts ?? []).map((p) => p?.text).filter((t): t is string => typeof t === 'string'));
}

/** The `output` of every functionResponse, in order. */
export function functionOutputs(body: GeminiBody): string[] {
  return (body.contents ?? []).flatMap((c) => (c?.parts ?? []).flatMap((p) => {
    const r = p?.functionResponse?.response;
    if (!r) return [];
    return [typeof r.output === 'string' ? r.output : JSON.stringify(r)];
  }));
}

const USAGE = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

function response(parts: GeminiPart[], finish: string | null, model: string): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, ...(finish ? { finishReason: finish } : {}), index: 0 }],
    usageMetadata: USAGE,
    modelVersion: model,
  };
}

export async function startFakeGemini(): Promise<FakeGemini> {
  const fake: FakeGemini = {
    baseUrl: '',
    requests: [],
    generateRequests: () => fake.requests.filter((r) => r.method === 'POST' && (r.action === 'streamGenerateContent' || r.action === 'generateContent')),
    script: scriptFor(),
    close: async () => {},
  };
  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    let body: GeminiBody = {};
    try {
      body = text ? (JSON.parse(text) as GeminiBody) : {};
    } catch {
      // Recorded as text.
    }
    const path = (req.url ?? '').split('?')[0];
    const m = /\/models\/([^/:]+):([A-Za-z]+)$/.exec(path);
    const model = m ? decodeURIComponent(m[1]) : 'mock-model';
    const action = m?.[2] ?? '';
    fake.requests.push({ method: req.method ?? '', url: req.url ?? '', action, body, text, at: Date.now() });

    if (req.method === 'POST' && (action === 'streamGenerateContent' || action === 'generateContent')) {
      const call = nextCall(fake.script, (name) => declaresFunction(body, name), functionResponseCount(body));
      const parts: GeminiPart[] = call
        ? [{ functionCall: { name: call.name, args: call.args } }]
        : [{ text: fake.script.answer }];
      if (action === 'generateContent') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(response(parts, 'STOP', model)));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      if (parts[0].text !== undefined) {
        // The text in two chunks, the way the real API streams it; the last one finishes the turn.
        const t = parts[0].text;
        const cut = Math.max(1, Math.floor(t.length / 2));
        res.write(`data: ${JSON.stringify(response([{ text: t.slice(0, cut) }], null, model))}\r\n\r\n`);
        res.write(`data: ${JSON.stringify(response([{ text: t.slice(cut) }], 'STOP', model))}\r\n\r\n`);
      } else {
        res.write(`data: ${JSON.stringify(response(parts, 'STOP', model))}\r\n\r\n`);
      }
      res.end();
      return;
    }
    if (req.method === 'POST' && action === 'countTokens') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ totalTokens: Math.ceil(text.length / 4) }));
      return;
    }
    if (req.method === 'GET' && /\/models\/?$/.test(path)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ models: [{ name: 'models/mock-model', displayName: 'Mock model', supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'] }] }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 404, message: `no route ${req.method} ${path}`, status: 'NOT_FOUND' } }));
  };
  const server = await startLocalServer(handle);
  fake.baseUrl = `http://127.0.0.1:${server.port}`;
  fake.close = server.close;
  return fake;
}
