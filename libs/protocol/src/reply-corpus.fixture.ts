import type { ParsedCall } from './types';

/**
 * Replies as real models write them, each with the calls it must yield. Shared by the codec
 * spec and by bench/protocol/parser-choice.ts, which measures XML parsers against it.
 */
export interface ReplyCase {
  behaviour: string;
  reply: string;
  calls: Pick<ParsedCall, 'name' | 'params'>[];
  thought?: string;
}

const FRUIT = [
  { id: 1, name: 'Apple', price: 2.5 },
  { id: 2, name: 'Banana', price: 1.8 },
  { id: 3, name: 'Orange', price: 3 },
];

export const REPLY_CORPUS: ReplyCase[] = [
  {
    behaviour: 'reads the documented example: parameters and a TOON table',
    reply: `<call name="function_name">
  <p>key1: value1</p>
  <p>key2: value2</p>
  <data type="toon">
items[3]{id,name,price}:
  1,Apple,2.5
  2,Banana,1.8
  3,Orange,3.0
  </data>
</call>`,
    calls: [{ name: 'function_name', params: { key1: 'value1', key2: 'value2', items: FRUIT } }],
  },
  {
    behaviour: 'keeps the prose before and after the calls as the thought',
    reply: `Let me check the disk first.\n<call name="disk_usage"><p>path: /var</p></call>\nI will report back.`,
    calls: [{ name: 'disk_usage', params: { path: '/var' } }],
    thought: 'Let me check the disk first.\n\nI will report back.',
  },
  {
    behaviour: 'reads calls inside a ```xml code fence',
    reply: 'Sure.\n```xml\n<call name="get_weather">\n  <p>city: Paris</p>\n</call>\n```',
    calls: [{ name: 'get_weather', params: { city: 'Paris' } }],
    thought: 'Sure.',
  },
  {
    behaviour: 'reads several calls in one reply, in order',
    reply: `<call name="get_weather"><p>city: Paris</p></call>
<call name="get_weather"><p>city: Berlin</p></call>
<call name="get_time"><p>zone: Europe/Berlin</p></call>`,
    calls: [
      { name: 'get_weather', params: { city: 'Paris' } },
      { name: 'get_weather', params: { city: 'Berlin' } },
      { name: 'get_time', params: { zone: 'Europe/Berlin' } },
    ],
  },
  {
    behaviour: 'accepts single-quoted and unquoted attributes',
    reply: `<call name='send_email'><p>to: ana@example.com</p></call><call name=ping></call>`,
    calls: [
      { name: 'send_email', params: { to: 'ana@example.com' } },
      { name: 'ping', params: {} },
    ],
  },
  {
    behaviour: 'keeps an unescaped & and < in a parameter value',
    reply: `<call name="search"><p>query: AT&T revenue < 5 billion & growing</p><p>filter: a<b</p></call>`,
    calls: [{ name: 'search', params: { query: 'AT&T revenue < 5 billion & growing', filter: 'a<b' } }],
  },
  {
    behaviour: 'keeps an unescaped & and < inside a data block',
    reply: `<call name="import_rows">
<data type="toon">
rows[2]{id,note}:
  1,R&D budget
  2,x < y
</data>
</call>`,
    calls: [
      {
        name: 'import_rows',
        params: {
          rows: [
            { id: 1, note: 'R&D budget' },
            { id: 2, note: 'x < y' },
          ],
        },
      },
    ],
  },
  {
    behaviour: 'takes CDATA content literally',
    reply: `<call name="write_file"><p>path: /tmp/a.html</p><p>content: <![CDATA[<p>Hi & bye</p>]]></p></call>`,
    calls: [{ name: 'write_file', params: { path: '/tmp/a.html', content: '<p>Hi & bye</p>' } }],
  },
  {
    behaviour: 'recovers a call whose </call> is missing at the end',
    reply: `Cleaning now.\n<call name="clean_logs">\n  <p>path: /var/log/app</p>\n  <p>days: 7</p>`,
    calls: [{ name: 'clean_logs', params: { path: '/var/log/app', days: 7 } }],
    thought: 'Cleaning now.',
  },
  {
    behaviour: 'recovers a call whose </call> is missing before the next call',
    reply: `<call name="a"><p>x: 1</p>\n<call name="b"><p>y: 2</p></call>`,
    calls: [
      { name: 'a', params: { x: 1 } },
      { name: 'b', params: { y: 2 } },
    ],
  },
  {
    behaviour: 'decodes JSON sent in a <data type="toon"> block',
    reply: `<call name="create_users">
  <data type="toon">
  {"users": [{"name": "Ana", "admin": true}, {"name": "Bo", "admin": false}]}
  </data>
</call>`,
    calls: [
      {
        name: 'create_users',
        params: {
          users: [
            { name: 'Ana', admin: true },
            { name: 'Bo', admin: false },
          ],
        },
      },
    ],
  },
  {
    behaviour: 'recovers a TOON table that declares more rows than it sends',
    reply: `<call name="add"><data type="toon">\nitems[5]{id,name,price}:\n  1,Apple,2.5\n  2,Banana,1.8\n  3,Orange,3\n</data></call>`,
    calls: [{ name: 'add', params: { items: FRUIT } }],
  },
  {
    behaviour: 'recovers a TOON table that declares fewer rows than it sends',
    reply: `<call name="add"><data type="toon">\nitems[2]{id,name,price}:\n  1,Apple,2.5\n  2,Banana,1.8\n  3,Orange,3\n</data></call>`,
    calls: [{ name: 'add', params: { items: FRUIT } }],
  },
  {
    behaviour: 'reads a data block indented along with the surrounding XML',
    reply: `<call name="add">
    <data type="toon">
        items[3]{id,name,price}:
          1,Apple,2.5
          2,Banana,1.8
          3,Orange,3
    </data>
</call>`,
    calls: [{ name: 'add', params: { items: FRUIT } }],
  },
  {
    behaviour: 'reads a data block with blank lines, tabs, CRLF and 4-space rows',
    reply:
      '<call name="add">\r\n<data type="toon">\r\n\r\nitems[3]{id,name,price}:\r\n    1,Apple,2.5\r\n\r\n    2,Banana,1.8\r\n\t\t3,Orange,3\r\n\r\n</data>\r\n</call>',
    calls: [{ name: 'add', params: { items: FRUIT } }],
  },
  {
    behaviour: 'ignores unknown tags inside and around a call',
    reply: `<thinking>The user wants Paris.</thinking>
<call name="get_weather"><note>metric please</note><p>city: Paris</p><br/></call>`,
    calls: [{ name: 'get_weather', params: { city: 'Paris' } }],
    thought: '<thinking>The user wants Paris.</thinking>',
  },
  {
    behaviour: 'decodes XML entities in parameter values',
    reply: `<call name="search"><p>query: Tom &amp; Jerry &lt;1940&gt; &#8364;5</p></call>`,
    calls: [{ name: 'search', params: { query: 'Tom & Jerry <1940> €5' } }],
  },
  {
    behaviour: 'reads a <p> whose </p> is missing',
    reply: `<call name="move"><p>from: /a\n<p>to: /b</p></call>`,
    calls: [{ name: 'move', params: { from: '/a', to: '/b' } }],
  },
  {
    behaviour: 'reads arguments given as a JSON object in the call body',
    reply: `<call name="get_weather">{"city": "Paris", "days": 3}</call>`,
    calls: [{ name: 'get_weather', params: { city: 'Paris', days: 3 } }],
  },
  {
    behaviour: 'reads upper-case tags, a self-closing call and <p name="...">',
    reply: `<CALL NAME="ping"/>\n<call name="rename"><p name="new name">Q3 report: final</p></call>`,
    calls: [
      { name: 'ping', params: {} },
      { name: 'rename', params: { 'new name': 'Q3 report: final' } },
    ],
  },
  {
    behaviour: 'types values only where that is lossless',
    reply: `<call name="t">
  <p>flag: true</p><p>none: null</p><p>count: 42</p><p>ratio: -0.5</p>
  <p>code: 007</p><p>version: 1.50</p><p>tags: ["a", "b"]</p><p>opts: {"deep": {"x": 1}}</p>
  <p>title: [WIP] fix</p><p>quoted: "as is"</p>
</call>`,
    calls: [
      {
        name: 't',
        params: {
          flag: true,
          none: null,
          count: 42,
          ratio: -0.5,
          code: '007',
          version: '1.50',
          tags: ['a', 'b'],
          opts: { deep: { x: 1 } },
          title: '[WIP] fix',
          quoted: '"as is"',
        },
      },
    ],
  },
  {
    behaviour: 'keeps a multi-line value with its inner line breaks',
    reply: `<call name="send_email">
  <p>subject: Status, "Q3" update</p>
  <p>body: Hi team,
  the deploy is done.
  — Ops</p>
</call>`,
    calls: [
      {
        name: 'send_email',
        params: { subject: 'Status, "Q3" update', body: 'Hi team,\n  the deploy is done.\n  — Ops' },
      },
    ],
  },
  {
    behaviour: 'merges a named JSON data block and a <p> into one call',
    reply: `<call name="bulk_tag"><p>tag: urgent</p><data name="ids" type="json">[3, 5, 8]</data></call>`,
    calls: [{ name: 'bulk_tag', params: { tag: 'urgent', ids: [3, 5, 8] } }],
  },
];
