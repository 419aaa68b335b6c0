import { describe, expect, it } from 'vitest';
import { REPLY_CORPUS } from './reply-corpus.fixture';
import type { ParsedReply } from './types';
import { encodeCalls, parseXmlToonReply } from './xml-toon.codec';

function callsOf(reply: ParsedReply) {
  if (reply.kind !== 'calls') throw new Error(`expected calls, got ${JSON.stringify(reply)}`);
  return reply.calls.map(({ name, params }) => ({ name, params }));
}

function errorOf(reply: ParsedReply): string {
  if (reply.kind !== 'invalid') throw new Error(`expected invalid, got ${JSON.stringify(reply)}`);
  return reply.error;
}

describe('parseXmlToonReply on replies real models write', () => {
  it.each(REPLY_CORPUS)('$behaviour', ({ reply, calls, thought }) => {
    const parsed = parseXmlToonReply(reply);
    expect(callsOf(parsed)).toEqual(calls);
    expect(parsed.kind === 'calls' ? parsed.thought : undefined).toBe(thought);
  });
});

describe('parseXmlToonReply', () => {
  it('treats a reply without any <call> as the final answer', () => {
    expect(parseXmlToonReply('  The disk is 80% full.\n')).toEqual({
      kind: 'final',
      answer: 'The disk is 80% full.',
    });
  });

  it('keeps the raw text of every <p> beside its typed value', () => {
    const [call] = (
      parseXmlToonReply('<call name="f"><p>id: 007</p><p>n: 7</p><p>s:  a &amp; b </p></call>') as {
        calls: { raw?: Record<string, string> }[];
      }
    ).calls;
    expect(call.raw).toEqual({ id: '007', n: '7', s: 'a & b' });
  });

  it('lets data keys win over <p> keys of the same name and drops their raw text', () => {
    const reply = parseXmlToonReply(
      '<call name="f"><p>ids: 1</p><data type="json">{"ids":[1,2]}</data></call>',
    );
    expect(reply).toMatchObject({ kind: 'calls', calls: [{ params: { ids: [1, 2] }, raw: {} }] });
  });

  it('rejects an empty reply', () => {
    expect(errorOf(parseXmlToonReply(' \n '))).toContain('the reply is empty');
  });

  it('rejects a call without a name, naming the call and the attribute', () => {
    expect(errorOf(parseXmlToonReply('<call><p>x: 1</p></call>'))).toContain('call 1 has no name attribute');
  });

  it('rejects a call whose name is empty, naming which call', () => {
    const error = errorOf(parseXmlToonReply('<call name="a"></call><call name="  "><p>x: 1</p></call>'));
    expect(error).toContain('call 2 has an empty function name');
  });

  it('rejects a <p> that is not "name: value", quoting it', () => {
    const error = errorOf(parseXmlToonReply('<call name="clean"><p>verbose</p></call>'));
    expect(error).toContain('call 1 (clean): <p>verbose</p> is not written as "name: value"');
  });

  it('rejects a <p> with an empty name', () => {
    expect(errorOf(parseXmlToonReply('<call name="f"><p>: 3</p></call>'))).toContain(
      'has an empty parameter name',
    );
  });

  it('reports a malformed TOON row with its line so the model can fix it', () => {
    const reply = '<call name="add"><data type="toon">\nitems[2]{id,name}:\n  1,Apple\n  2\n</data></call>';
    expect(errorOf(parseXmlToonReply(reply))).toMatch(
      /call 1 \(add\): the <data> block is not valid TOON \(Line 3: .*got 1/,
    );
  });

  it('reports a data block that holds an unnamed list', () => {
    const error = errorOf(parseXmlToonReply('<call name="f"><data type="json">[1, 2]</data></call>'));
    expect(error).toContain('holds a list with no name; start it with a key');
  });

  it('rejects a body that is neither parameters nor a JSON object', () => {
    expect(errorOf(parseXmlToonReply('<call name="f">{city: Paris}</call>'))).toContain(
      'neither <p>name: value</p>',
    );
  });

  it('rejects a </call> without an opening <call name="...">', () => {
    expect(errorOf(parseXmlToonReply('<p>city: Paris</p></call>'))).toContain(
      'a </call> without an opening <call',
    );
  });

  it('rejects a <call> tag it cannot read instead of answering with it', () => {
    expect(errorOf(parseXmlToonReply('<call name="f><p>x: 1</p></call>'))).toContain(
      'a <call> tag is malformed',
    );
  });

  it('rejects an unreadable <call> tag even when another call is fine, rather than dropping it', () => {
    const reply = '<call name="a"><p>x: 1</p></call>\n<call name="b><p>y: 2</p></call>';
    expect(errorOf(parseXmlToonReply(reply))).toContain('a <call> tag is malformed');
  });

  it('ends every invalid message with how to write a call, for the repair round', () => {
    expect(errorOf(parseXmlToonReply('<call><p>x: 1</p></call>'))).toMatch(
      /^Your reply could not be read: .*Write each call as <call name="function_name">, then one param: value line per parameter, then <\/call>/,
    );
  });
});

describe('encodeCalls', () => {
  it('writes scalars as name: value lines and structured values as TOON lines in the body', () => {
    const text = encodeCalls([
      { name: 'add', params: { list: 'groceries', notify: true, items: [{ id: 1 }, { id: 2 }] } },
    ]);
    expect(text).toBe('<call name="add">\nlist: groceries\nnotify: true\nitems[2]{id}:\n 1\n 2\n</call>');
  });

  it('writes a string that would read back as another type or text in a <p>, in CDATA', () => {
    const text = encodeCalls([
      { name: 'f', params: { code: '007', n: '42', pad: ' x ', lines: 'a\nb', html: '<p>x</p>' } },
    ]);
    expect(text).toContain('\ncode: 007\n');
    expect(text).toContain('<p>n: <![CDATA[42]]></p>');
    expect(text).toContain('<p>pad: <![CDATA[ x ]]></p>');
    expect(text).toContain('<p>lines: a\nb</p>');
    expect(text).toContain('<p>html: <![CDATA[<p>x</p>]]></p>');
    expect(callsOf(parseXmlToonReply(text))).toEqual([
      { name: 'f', params: { code: '007', n: '42', pad: ' x ', lines: 'a\nb', html: '<p>x</p>' } },
    ]);
  });

  it('falls back to a TOON <data> block when the bare lines would not read back', () => {
    const text = encodeCalls([{ name: 'f', params: { options: {} } }]);
    expect(callsOf(parseXmlToonReply(text))).toEqual([{ name: 'f', params: { options: {} } }]);
  });

  it('falls back to JSON with escaped < when TOON text would hold a closing tag', () => {
    const text = encodeCalls([{ name: 'f', params: { rows: [{ note: '</data>' }] } }]);
    expect(text).toContain('<data type="json">\n{"rows":[{"note":"\\u003c/data>"}]}');
    expect(callsOf(parseXmlToonReply(text))).toEqual([
      { name: 'f', params: { rows: [{ note: '</data>' }] } },
    ]);
  });

  it('writes a call without parameters on one line', () => {
    expect(encodeCalls([{ name: 'ping', params: {} }])).toBe('<call name="ping"></call>');
  });
});
