import { parseJsonActionReply } from './json-action.codec';
import type { ParsedReply, ToolProtocol } from './types';
import { parseXmlToonReply } from './xml-toon.codec';

/** Parses a model reply in the given protocol. Never throws: a failure is an `invalid` reply. */
export function parseAssistantReply(text: string, protocol: ToolProtocol = 'xml-toon'): ParsedReply {
  try {
    return protocol === 'json-action' ? parseJsonActionReply(text) : parseXmlToonReply(text);
  } catch (error) {
    // Defence in depth: the codecs are written not to throw, but one bad reply must not end a run.
    const reason = error instanceof Error ? error.message : String(error);
    return {
      kind: 'invalid',
      error: `Your reply could not be read (${reason}). Please send it again.`,
      problem: reason,
    };
  }
}
