import { describe, expect, it } from 'vitest';
import { decodeResult } from './result-decoder';
import { encodeError, encodeResult } from './result.codec';
import { parseXmlToonReply } from './xml-toon.codec';

describe('encodeResult', () => {
  it('renders the documented success shape exactly', () => {
    const result = encodeResult('function_name', {
      message: '操作完成',
      data: {
        files: [
          { name: 'app.log', size: 1024, deleted: true },
          { name: 'error.log', size: 512, deleted: true },
        ],
      },
      markdown: '## 清理结果\n- 删除文件：2 个\n- 释放空间：1.5 KB',
    });
    expect(result).toBe(`<result name="function_name">
<message>操作完成</message>
<data type="toon">
files[2]{name,size,deleted}:
 app.log,1024,true
 error.log,512,true
</data>
<output type="markdown">
## 清理结果
- 删除文件：2 个
- 释放空间：1.5 KB
</output>
</result>`);
  });

  it('reads back a result as written now, and as written before (status="success", elements and TOON indented two spaces)', () => {
    const data = { files: [{ name: 'app.log', size: 1024 }], owner: { id: 7, tags: ['a', 'b'] } };
    const now = encodeResult('ls', { message: 'Listed', data });
    expect(now).toContain('\nfiles[1]{name,size}:\n app.log,1024\nowner:\n id: 7\n');
    const read = { name: 'ls', status: 'success', message: 'Listed', data };
    expect(decodeResult(now)).toEqual(read);
    const before = `<result name="ls" status="success">
  <message>Listed</message>
  <data type="toon">
files[1]{name,size}:
  app.log,1024
owner:
  id: 7
  tags[2]: a,b
  </data>
</result>`;
    expect(decodeResult(before)).toEqual(read);
    const failed = { name: 'rm', status: 'error', error: 'denied' };
    expect(decodeResult(encodeError('rm', 'denied'))).toEqual(failed);
    expect(decodeResult('<result name="rm" status="error">\n  <error>denied</error>\n</result>')).toEqual(
      failed,
    );
  });

  it('leaves out the parts a function did not return', () => {
    expect(encodeResult('ping', { message: 'pong' })).toBe(
      '<result name="ping">\n<message>pong</message>\n</result>',
    );
    expect(encodeResult('noop', {})).toBe('<result name="noop">\n</result>');
  });

  it('labels irregular data with the format it chose', () => {
    expect(encodeResult('get', { data: { a: { b: { c: [1, { d: 2 }] } } } })).toContain('<data type="json">');
  });

  it('honours a forced data format', () => {
    const result = encodeResult('list', { data: [{ id: 1 }, { id: 2 }] }, { format: 'json' });
    expect(result).toContain('<data type="json">\n[{"id":1},{"id":2}]\n</data>');
  });

  it('guards text that would close its element or the result early', () => {
    const result = encodeResult('fetch', { message: 'see </message>', markdown: 'a </output> b </result>' });
    expect(result).toContain('<message>see &lt;/message></message>');
    expect(result).toContain('a &lt;/output> b &lt;/result>');
  });

  it('escapes the function name attribute', () => {
    expect(encodeResult('a"b', {})).toContain('<result name="a&quot;b">');
  });
});

describe('encodeError', () => {
  it('renders the documented error shape exactly', () => {
    expect(encodeError('function_name', 'permission denied: /var/log')).toBe(
      '<result name="function_name" status="error">\n<error>permission denied: /var/log</error>\n</result>',
    );
  });

  it('guards a message that contains a closing error tag', () => {
    expect(encodeError('f', 'bad </error> here')).toContain('<error>bad &lt;/error> here</error>');
  });

  it('is not mistaken for a call when a model echoes it back', () => {
    expect(parseXmlToonReply(encodeError('f', 'boom'))).toMatchObject({ kind: 'final' });
  });
});
