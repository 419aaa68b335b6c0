import { describe, expect, it } from 'vitest';
import { readParam, typeParamValue } from './param-value';
import type { ContentPiece } from './xml-structure';

const text = (value: string): ContentPiece => ({ kind: 'text', text: value });
const cdata = (value: string): ContentPiece => ({ kind: 'cdata', text: value });

describe('typeParamValue', () => {
  it.each([
    ['true', true],
    ['false', false],
    ['null', null],
    ['42', 42],
    ['-0.5', -0.5],
    ['1e+21', 1e21],
    ['[1,"a"]', [1, 'a']],
    ['{"a":{"b":null}}', { a: { b: null } }],
  ])('types %j', (written, typed) => {
    expect(typeParamValue(written)).toEqual(typed);
  });

  it.each([
    '007',
    '1.50',
    '-0',
    '1e3',
    '12345678901234567890',
    'True',
    'NULL',
    '"quoted"',
    '[WIP]',
    '{a:1}',
    '0x1F',
    ' 4',
  ])('keeps %j as text, since typing it would change what was written', (written) => {
    expect(typeParamValue(written)).toBe(written);
  });
});

describe('readParam', () => {
  it('splits at the first colon and trims the value edges', () => {
    expect(readParam({ attrs: {}, pieces: [text(' url :  http://x:8080/a \n')] })).toEqual({
      ok: true,
      key: 'url',
      value: 'http://x:8080/a',
      rawText: 'http://x:8080/a',
    });
  });

  it('keeps CDATA verbatim and never types it', () => {
    expect(readParam({ attrs: {}, pieces: [text('n: '), cdata(' 42 ')] })).toMatchObject({
      value: ' 42 ',
      rawText: ' 42 ',
    });
  });

  it('takes the name from a name attribute when there is one', () => {
    expect(readParam({ attrs: { name: 'a:b' }, pieces: [text('x: y')] })).toMatchObject({
      key: 'a:b',
      value: 'x: y',
    });
  });

  it('reports a value without a name', () => {
    expect(readParam({ attrs: {}, pieces: [cdata('x')] })).toMatchObject({ ok: false });
  });
});
