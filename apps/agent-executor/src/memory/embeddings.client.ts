import { Inject, Injectable } from '@nestjs/common';
import type { PlatformConfig } from '@app/config';
import { UnavailableError } from '@app/contracts';
import { PLATFORM_CONFIG } from '@app/runtime';
import { QueryVectorCache } from './query-vector.cache';

/** Texts per request: well under what OpenAI-compatible servers take in one call. */
const BATCH = 256;
const QUERY_CACHE_SIZE = 1_000;

type EmbeddingsConfig = PlatformConfig['memory']['embeddings'];

/**
 * An OpenAI-compatible `/embeddings` endpoint (`memory.embeddings`), for memory search by meaning.
 * `enabled` is false without a base URL: memory is then searched by full text only. The API key
 * goes in the request header only, never in an error or a log.
 */
@Injectable()
export class EmbeddingsClient {
  private readonly queries = new QueryVectorCache(QUERY_CACHE_SIZE);
  private readonly config: EmbeddingsConfig;

  constructor(@Inject(PLATFORM_CONFIG) config: Pick<PlatformConfig, 'memory'>) {
    this.config = config.memory.embeddings;
  }

  get enabled(): boolean {
    return this.config.base_url !== undefined;
  }

  get dimensions(): number {
    return this.config.dimensions;
  }

  /** A search query's vector; a query asked recently costs no call. */
  embedQuery(query: string): Promise<number[]> {
    return this.queries.get(query, async (text) => (await this.embed([text]))[0]);
  }

  /** The texts' vectors, in order. */
  async embed(texts: readonly string[]): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += BATCH)
      vectors.push(...(await this.request(texts.slice(start, start + BATCH))));
    return vectors;
  }

  private async request(input: readonly string[]): Promise<number[][]> {
    const { base_url, api_key, model, dimensions, timeout } = this.config;
    let response: Response;
    try {
      response = await fetch(`${base_url!.replace(/\/+$/, '')}/embeddings`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(api_key ? { authorization: `Bearer ${api_key}` } : {}),
        },
        body: JSON.stringify({ model, input, dimensions, encoding_format: 'float' }),
        signal: AbortSignal.timeout(timeout),
      });
    } catch (err) {
      throw new UnavailableError(`the embeddings endpoint could not be reached: ${(err as Error).name}`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new UnavailableError(`the embeddings endpoint answered ${response.status}`);
    }
    return vectorsOf(await response.json(), input.length, dimensions);
  }
}

function vectorsOf(body: unknown, count: number, dimensions: number): number[][] {
  const data = (body as { data?: unknown })?.data;
  const vectors = Array.isArray(data)
    ? [...data]
        .sort((a, b) => Number(a?.index) - Number(b?.index))
        .map((d: { embedding?: unknown }) => d?.embedding)
    : [];
  const valid = (v: unknown): v is number[] =>
    Array.isArray(v) &&
    v.length === dimensions &&
    v.every((x) => typeof x === 'number' && Number.isFinite(x));
  if (vectors.length !== count || !vectors.every(valid))
    throw new UnavailableError(
      `the embeddings endpoint did not answer ${count} vectors of ${dimensions} numbers`,
    );
  return vectors;
}
