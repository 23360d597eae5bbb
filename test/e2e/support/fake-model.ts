/**
 * One face for the four scripted model servers, so a conformance scenario can drive any host:
 * start the server its API needs, set the script, read back the model requests.
 */
import { startFakeAnthropic } from './fake-anthropic.js';
import { startFakeGemini } from './fake-gemini.js';
import { startFakeOpenAI } from './fake-openai.js';
import { startFakeResponses } from './fake-responses.js';
import type { ModelScript } from './model-script.js';

export type ModelApi = 'anthropic-messages' | 'openai-responses' | 'openai-chat' | 'gemini';

export interface ModelRequest {
  /** The parsed JSON body. */
  body: any;
  /** The raw body text. */
  text: string;
}

export interface FakeModel {
  api: ModelApi;
  /** What the host's provider setting points at (`…/v1` for the OpenAI APIs). */
  baseUrl: string;
  script: ModelScript;
  /** The model turns only (no count-tokens, model lists or probes), in arrival order. */
  modelRequests(): ModelRequest[];
  close(): Promise<void>;
}

export async function startFakeModel(api: ModelApi): Promise<FakeModel> {
  switch (api) {
    case 'anthropic-messages': {
      const f = await startFakeAnthropic();
      return wrap(api, f.url, f, () => f.messageRequests());
    }
    case 'openai-responses': {
      const f = await startFakeResponses();
      return wrap(api, f.baseUrl, f, () => f.requests.filter((r) => r.method === 'POST' && r.url.split('?')[0].endsWith('/responses')));
    }
    case 'openai-chat': {
      const f = await startFakeOpenAI();
      return wrap(api, f.baseUrl, f, () => f.chatRequests());
    }
    case 'gemini': {
      const f = await startFakeGemini();
      return wrap(api, f.baseUrl, f, () => f.generateRequests());
    }
  }
}

function wrap(api: ModelApi, baseUrl: string, server: { script: ModelScript; close(): Promise<void> }, requests: () => ModelRequest[]): FakeModel {
  return {
    api,
    baseUrl,
    get script() {
      return server.script;
    },
    set script(s: ModelScript) {
      server.script = s;
    },
    modelRequests: requests,
    close: () => server.close(),
  };
}
