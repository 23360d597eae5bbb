/**
 * Building the page without HTML: every element is made with createElement and every piece of
 * captured content goes in as a text node, so a `<script>` in a tool's output is shown as text.
 */
import { HOST_LABELS } from './hosts.js';

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return el;
}

export function replace(target: Element, ...children: (Child | Child[])[]): void {
  target.replaceChildren();
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    target.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

export const hostLabel = (host: string): string => HOST_LABELS[host] ?? host;

/** The host as a badge: its initials in its own colour, then its name. */
export function hostBadge(host: string): HTMLElement {
  const label = hostLabel(host);
  const initials = label.split(/[\s-]+/).map((w) => w[0]).join('').slice(0, 2).toUpperCase();
  return h('span', { class: `host host-${host.replace(/[^a-z0-9-]/g, '')}`, title: label }, h('span', { class: 'host-icon', 'aria-hidden': 'true' }, initials), label);
}

export const when = (iso: string | null | undefined): string => (iso ? iso.slice(0, 19).replace('T', ' ') : '');

export function time(iso: string): HTMLTimeElement {
  return h('time', { datetime: iso, title: iso }, when(iso));
}

/** A search snippet: the words the store marked with **…** are highlighted, the rest is text. */
export function snippet(text: string): HTMLElement {
  const out = h('span', { class: 'snippet' });
  text.split('**').forEach((part, i) => out.append(i % 2 ? h('mark', {}, part) : document.createTextNode(part)));
  return out;
}

export function fileList(files: string[]): HTMLElement | null {
  if (!files.length) return null;
  return h('ul', { class: 'files', 'aria-label': 'Files' }, files.map((f) => h('li', {}, h('code', {}, f))));
}

export const link = (href: string, text: string, attrs: Attrs = {}): HTMLAnchorElement => h('a', { href, ...attrs }, text);

export function empty(text: string): HTMLElement {
  return h('p', { class: 'muted empty' }, text);
}

export function problem(err: unknown): HTMLElement {
  return h('p', { class: 'error', role: 'alert' }, err instanceof Error ? err.message : String(err));
}
