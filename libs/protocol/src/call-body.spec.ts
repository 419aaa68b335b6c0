import { describe, expect, it } from 'vitest';
import type { ParsedReply } from './types';
import { parseXmlToonReply } from './xml-toon.codec';

function onlyCall(reply: ParsedReply) {
  if (reply.kind !== 'calls' || reply.calls.length !== 1) throw new Error(JSON.stringify(reply));
  return reply.calls[0];
}

describe('parameters as bare lines in a call body', () => {
  it('reads name: value lines with the typing of <p>, keeping their raw text', () => {
    const call = onlyCall(
      parseXmlToonReply(
        '<call name="f">\nhost: web-1\nlines: 80\nforce: true\ncode: 007\nurl: https://a.b/c?x=1\nnote:\n</call>',
      ),
    );
    expect(call.params).toEqual({
      host: 'web-1',
      lines: 80,
      force: true,
      code: '007',
      url: 'https://a.b/c?x=1',
      note: '',
    });
    expect(call.raw).toMatchObject({ lines: '80', force: 'true', code: '007' });
  });

  it('reads a list or an object written as JSON on its line', () => {
    const reply = '<call name="f">\nfiles: ["a.log", "b.log"]\noptions: {"dry_run": true}\n</call>';
    expect(onlyCall(parseXmlToonReply(reply)).params).toEqual({
      files: ['a.log', 'b.log'],
      options: { dry_run: true },
    });
  });

  it('reads a value in double quotes as the string inside them, raw text included', () => {
    const call = onlyCall(
      parseXmlToonReply('<call name="f">\nmessage: "Hello, \\"world\\": 42"\nid: "42"\n</call>'),
    );
    expect(call.params).toEqual({ message: 'Hello, "world": 42', id: '42' });
    expect(call.raw).toEqual({ message: 'Hello, "world": 42', id: '42' });
  });

  it('reads a TOON table, an inline list and a nested object, indented or not', () => {
    const body = [
      '  list: groceries',
      '  items[2]{name,qty}:',
      '    Apple,3',
      '    Banana,6',
      '  tags[2]: a,b',
      '  options:',
      '    dry_run: true',
    ].join('\n');
    expect(onlyCall(parseXmlToonReply(`<call name="add_items">\n${body}\n</call>`)).params).toEqual({
      list: 'groceries',
      items: [
        { name: 'Apple', qty: 3 },
        { name: 'Banana', qty: 6 },
      ],
      tags: ['a', 'b'],
      options: { dry_run: true },
    });
  });

  it('takes rows written flush with their list header as its rows', () => {
    const reply =
      '<call name="f">\nitems[2]{name,qty}:\nApple,3\nBanana,6\ntags[2]:\n- a\n- b\nnote: done\n</call>';
    expect(onlyCall(parseXmlToonReply(reply)).params).toEqual({
      items: [
        { name: 'Apple', qty: 3 },
        { name: 'Banana', qty: 6 },
      ],
      tags: ['a', 'b'],
      note: 'done',
    });
  });

  it('lets <p> and <data> win over a bare line of the same name, and mixes them', () => {
    const reply =
      '<call name="f">\nto: ops\nbody: short\n<p>body: two\nlines</p>\n<data>n: 1</data>\n</call>';
    expect(onlyCall(parseXmlToonReply(reply)).params).toEqual({ to: 'ops', body: 'two\nlines', n: 1 });
  });

  it('leaves out body text that is no parameter, as before (an aside inside a call)', () => {
    const reply = '<call name="f">\nchecking the disk first\n<p>path: /var</p>\n</call>';
    expect(onlyCall(parseXmlToonReply(reply)).params).toEqual({ path: '/var' });
  });

  it('still reads a JSON object body', () => {
    expect(onlyCall(parseXmlToonReply('<call name="f">{"path": "/tmp", "n": 2}</call>')).params).toEqual({
      path: '/tmp',
      n: 2,
    });
  });

  it('reports a list that is not valid TOON', () => {
    const reply = parseXmlToonReply('<call name="f">\nitems[2]{a,b}:\n  1,2,3\n  4,5\n</call>');
    expect(reply.kind === 'invalid' ? reply.error : '').toMatch(/call 1 \(f\): the list is not valid TOON/);
  });
});
