import { describe, expect, it } from 'vitest';
import { stripPrivate } from '../../src/shared/privacy.js';

describe('stripPrivate', () => {
  it('leaves text without tags untouched', () => {
    expect(stripPrivate('plain text < not a tag >')).toEqual({ text: 'plain text < not a tag >', hadPrivate: false, fullyPrivate: false });
    expect(stripPrivate('')).toEqual({ text: '', hadPrivate: false, fullyPrivate: false });
  });

  it('removes a span and keeps the rest', () => {
    expect(stripPrivate('fix the bug <private>my ssn is 123</private> in app.ts')).toEqual({
      text: 'fix the bug  in app.ts',
      hadPrivate: true,
      fullyPrivate: false,
    });
  });

  it('is case-insensitive and multi-line', () => {
    const r = stripPrivate('a <PRIVATE>\nline 1\nline 2\n</Private> b');
    expect(r.text).toBe('a  b');
    expect(r.hadPrivate).toBe(true);
  });

  it('handles several spans', () => {
    expect(stripPrivate('1<private>x</private>2<private>y</private>3').text).toBe('123');
  });

  it('handles nesting: the outer span is removed whole', () => {
    expect(stripPrivate('a <private>x <private>y</private> z</private> b').text).toBe('a  b');
  });

  it('hides everything after an unclosed tag', () => {
    const r = stripPrivate('visible <private> hidden\nstill hidden');
    expect(r.text).toBe('visible');
    expect(r.hadPrivate).toBe(true);
    expect(r.fullyPrivate).toBe(false);
  });

  it('an unclosed nested tag hides the rest too', () => {
    expect(stripPrivate('a <private>x <private>y</private> z tail').text).toBe('a');
  });

  it('drops stray closing tags and self-closing tags without hiding text', () => {
    expect(stripPrivate('a </private> b').text).toBe('a  b');
    expect(stripPrivate('a <private/> b').text).toBe('a  b');
    expect(stripPrivate('a </private> b').hadPrivate).toBe(false);
  });

  it('accepts attributes and whitespace inside the tag', () => {
    expect(stripPrivate('a <private reason="pii">x</private > b').text).toBe('a  b');
  });

  it('does not treat look-alike tags as private', () => {
    expect(stripPrivate('<privateer>ship</privateer> <private-data>x</private-data>').hadPrivate).toBe(false);
  });

  it('reports fully private text', () => {
    expect(stripPrivate('<private>everything</private>')).toEqual({ text: '', hadPrivate: true, fullyPrivate: true });
    expect(stripPrivate('  <private>a</private>\n <private>b</private> ').fullyPrivate).toBe(true);
    expect(stripPrivate('<private>unclosed from the start').fullyPrivate).toBe(true);
  });

  it('runs in linear time on 1 MB inputs', () => {
    const inputs = [
      '<private>x</private> visible '.repeat(40_000),
      '<private '.repeat(120_000),
      '<'.repeat(1024 * 1024),
      '<private>'.repeat(110_000),
      '</private>'.repeat(100_000),
    ];
    for (const s of inputs) {
      const t = Date.now();
      stripPrivate(s);
      expect(Date.now() - t).toBeLessThan(10_000);
    }
  });
});
