export { startScriptedLlm } from './scripted-llm/scripted-llm.server';
export type { ScriptedLlm, ScriptedLlmOptions } from './scripted-llm/scripted-llm.server';
export type { Reply, ReplySpec, Rule, Script, ScriptedToolCall } from './scripted-llm/script';
export type { RecordedRequest } from './scripted-llm/request-log';
export { NO_REPLY_TEXT } from './scripted-llm/script-player';
export { CONVERSATION_HEADER } from './scripted-llm/wire-common';
export * from './databases';
export * from './expect-eventually';
export * from './service-process';
