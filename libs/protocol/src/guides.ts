// The words that teach a model each text protocol: how to call (the system prompt's guide, prompt.ts)
// and what an unreadable reply is answered with (the codecs). Constants in a module of their own, so
// an agent's prompt templates hold them without loading the codecs (the portable entry).

// Paid on every request: each clause earns its tokens. `<every-row>` and `<note>` are the two
// result elements a model cannot guess (result-render.ts). `{example}` is the worked example; its
// `items` shows TOON's list form (`key[count]{fields}:`, then one row per line), so the text
// points at it instead of spelling the form out (9 tokens a request).
// Parameters are bare lines in the call's body (call-body.ts): `<p>` and `<data>` cost 4-8 tokens
// more a parameter, in the model's output, and stay for text over several lines (and are read).
export const XML_TOON_GUIDE = `## Calling functions
Example (not a real function):
{example}
One name: value line per parameter; lists and objects as TOON like items, or JSON; text over several lines in <p>name: text</p>. A reply's calls run concurrently. A <result>'s <every-row> holds fields equal in every row of its table. To answer the user, reply without <call>.`;

export const JSON_ACTION_GUIDE = `## Calling functions
Reply with exactly one JSON object and nothing else:
- to call a function: {"type":"action","tool":"function_name","args":{"param":"value"}}
- to answer the user: {"type":"final","answer":"..."}
After an action you receive its result; then act again or answer.`;

/** What an unreadable xml-toon reply is answered with; `{error}` is what could not be read. */
export const XML_TOON_REPAIR =
  'Your reply could not be read: {error}. Write each call as <call name="function_name">, then one param: value line per parameter, then </call>; to answer the user, reply without <call>.';

/** What an unreadable json-action reply is answered with; `{error}` is what could not be read. */
export const JSON_ACTION_REPAIR =
  'Your reply could not be read: {error}. Reply with exactly one JSON object: {"type":"action","tool":"function_name","args":{...}} or {"type":"final","answer":"..."}.';
