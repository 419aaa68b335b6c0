import { describe, expect, it } from 'vitest';
import { parseAttributes, tokenize } from './xml-scanner';

describe('tokenize', () => {
  it('reads tags, closing tags and text, keeping each token source', () => {
    const tokens = tokenize('a<call name="f">b</call >');
    expect(tokens.map((token) => token.kind)).toEqual(['text', 'open', 'text', 'close']);
    expect(tokens.map((token) => token.source).join('')).toBe('a<call name="f">b</call >');
  });

  it('treats a < that does not start a tag as text', () => {
    expect(tokenize('x < y, a<b, 1<2 <')).toEqual([{ kind: 'text', source: 'x < y, a<b, 1<2 <' }]);
  });

  it('reads CDATA, and an unterminated CDATA section to the end', () => {
    expect(tokenize('<![CDATA[<p>]]>')).toEqual([{ kind: 'cdata', source: '<![CDATA[<p>]]>', text: '<p>' }]);
    expect(tokenize('<![CDATA[open')).toEqual([{ kind: 'cdata', source: '<![CDATA[open', text: 'open' }]);
  });

  it('reads a self-closing tag and lower-cases tag names', () => {
    expect(tokenize('<CALL NAME="ping"/>')).toEqual([
      {
        kind: 'open',
        source: '<CALL NAME="ping"/>',
        name: 'call',
        attrs: { name: 'ping' },
        selfClosing: true,
      },
    ]);
  });

  it('allows > inside a quoted attribute value', () => {
    expect(tokenize('<call name="a>b">')[0]).toMatchObject({ kind: 'open', attrs: { name: 'a>b' } });
  });
});

describe('parseAttributes', () => {
  it('accepts double, single, bare and valueless attributes', () => {
    expect(parseAttributes(` name="a b" type='toon' size=3 hidden`)).toEqual({
      name: 'a b',
      type: 'toon',
      size: '3',
      hidden: '',
    });
  });
});
