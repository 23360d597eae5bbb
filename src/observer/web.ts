/** WebFetch and WebSearch → `web` observations. */
import type { CaptureEvent } from '../shared/capture-event.js';
import { buildDraft, didFail } from './draft.js';
import { readOutput } from './output.js';
import type { ObservationDraft } from './types.js';
import { asRecord, clip, excerpt, inputRecord, pickNumber, pickString, uniqueBounded } from './text.js';

// Bounded URL shape: no nested quantifiers, stops at whitespace, quotes and brackets.
const URL_RE = /https?:\/\/[^\s"'<>()[\]{}]{1,300}/g;

/** `https://example.com/docs/x?y` → `example.com/docs/x` for titles. */
function shortUrl(url: string): string {
  return url.replace(/^https?:\/\//, '').replace(/[?#].*$/, '').replace(/\/$/, '');
}

export function observeFetch(e: CaptureEvent): ObservationDraft {
  const input = inputRecord(e.toolInput);
  const resp = asRecord(e.toolResponse);
  const prompt = pickString(input, 'prompt', 'question', 'query');
  // Gemini's web_fetch has no url field: the URLs are inside its prompt.
  const url = pickString(input, 'url', 'uri', 'href') ?? pickString(resp, 'url') ?? prompt?.match(URL_RE)?.[0] ?? '';
  const out = readOutput(e.toolResponse);
  const status = pickNumber(resp, 'code', 'status', 'statusCode', 'status_code');
  const failed = didFail(e, undefined, out.failed) || (status !== undefined && status >= 400);
  const statusText = status !== undefined ? `HTTP ${status}${pickString(resp, 'codeText') ? ` ${pickString(resp, 'codeText')}` : ''}` : '';
  return buildDraft(e, {
    type: 'web',
    title: `${failed ? 'Failed to fetch' : 'Fetched'} ${url ? clip(shortUrl(url), 90) : 'a web page'}${status !== undefined && status >= 400 ? ` (${status})` : ''}`,
    subtitle: prompt ? clip(prompt, 200) : null,
    lines: [
      url && `URL: ${clip(url, 500)}`,
      prompt && `Asked: ${clip(prompt, 300)}`,
      statusText && `Status: ${statusText}`,
      out.error && `Error: ${clip(out.error, 300)}`,
      out.text && `Result:\n${excerpt(out.text, 600)}`,
    ],
    facts: [url && `url: ${url}`, statusText && `status: ${statusText}`, failed && 'failed'],
    concepts: ['web', ...(failed ? ['error'] : [])],
  });
}

export function observeWebSearch(e: CaptureEvent): ObservationDraft {
  const input = inputRecord(e.toolInput);
  const query = pickString(input, 'query', 'q', 'search_term', 'prompt') ?? '';
  const out = readOutput(e.toolResponse);
  const failed = didFail(e, undefined, out.failed);
  let raw = out.text;
  if (!raw && e.toolResponse !== undefined) {
    try {
      raw = JSON.stringify(e.toolResponse).slice(0, 64 * 1024);
    } catch {
      raw = '';
    }
  }
  const urls = uniqueBounded(raw.match(URL_RE) ?? [], 10);
  return buildDraft(e, {
    type: 'web',
    title: `${failed ? 'Web search failed' : 'Searched the web'} for "${clip(query, 80)}"`,
    subtitle: urls.length ? `${urls.length} result URLs` : null,
    lines: [
      `Query: ${clip(query, 300)}`,
      urls.length > 0 && `Results:\n${urls.map((u) => `- ${clip(u, 200)}`).join('\n')}`,
      out.text && !urls.length && `Result:\n${excerpt(out.text, 600)}`,
      out.error && `Error: ${clip(out.error, 300)}`,
    ],
    facts: [`query: ${query}`, ...urls.slice(0, 5).map((u) => `result: ${u}`), failed && 'failed'],
    concepts: ['web', ...(failed ? ['error'] : [])],
  });
}
