import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { PromptAccount } from './prompt-cache';
import type { PromptPiece } from './prompt-tokens';
import type { PlannedReply, Turn } from './script-player';

/** One server-sent event of a streamed reply. */
export interface SsePayload {
  event?: string;
  data: object | string;
}

export const DEFAULT_MODEL = 'scripted-model';
export const CONVERSATION_HEADER = 'x-scripted-conversation';

/** A fake model has no tokenizer: roughly four characters a token, deterministic. */
export function roughTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function newId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}

/** Word-sized pieces (spaces kept), the way a real model streams. */
export function streamPieces(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

/** Tool arguments arrive in several fragments, as they do from real models. */
export function jsonPieces(json: string): string[] {
  const size = Math.max(4, Math.ceil(json.length / 3));
  const pieces: string[] = [];
  for (let at = 0; at < json.length; at += size) pieces.push(json.slice(at, at + size));
  return pieces;
}

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function credentialOf(headers: IncomingHttpHeaders): string {
  const bearer = headerValue(headers, 'authorization')?.replace(/^Bearer\s+/i, '');
  return bearer ?? headerValue(headers, 'x-api-key') ?? headerValue(headers, 'api-key') ?? '';
}

export function conversationKey(headers: IncomingHttpHeaders, firstUserContent: string): string {
  return headerValue(headers, CONVERSATION_HEADER) ?? firstUserContent;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** A request the wire format refuses; answered with the provider's error body. */
export class WireError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** What every wire's request holds; `account`: its prompt as the emulated cache billed it, when on. */
export interface WireRequest {
  stream: boolean;
  turn: Turn;
  account?: PromptAccount;
}

/**
 * One provider's wire format: how to read a request and write a reply, plain or streamed; how its
 * prompt is rendered into tokens and cached (OpenAI's automatic prefixes, Anthropic's breakpoints).
 */
export interface WireFormat<R extends WireRequest> {
  read(body: Record<string, unknown>, headers: IncomingHttpHeaders): R;
  promptPieces(body: Record<string, unknown>): PromptPiece[];
  cache: 'automatic' | 'breakpoints';
  complete(reply: PlannedReply, request: R): object;
  stream(reply: PlannedReply, request: R): SsePayload[];
  errorBody(status: number, message?: string): object;
}

export { contentText } from './content-text';
