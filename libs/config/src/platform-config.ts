import type { ModelPrice } from '@app/contracts';
import type { CONFIG_KEYS, KeyType } from './config-keys';
import type { A2aAgentConfig } from './a2a-config';
import type { McpServerConfig } from './mcp-config';

type Key = (typeof CONFIG_KEYS)[number];
/** A key of the table, or one of a section's keys with its path relative to the section. */
type Spec = { path: string; type: KeyType };

/** The TypeScript type of each key type's parsed value. */
interface ValueOfType {
  string: string;
  int: number;
  number: number;
  bool: boolean;
  duration: number;
  url: string;
  list: string[];
}

/** A `string` key with `oneOf` is that union; every other key is its type's value. */
type ValueOf<K extends Spec> = K extends { type: 'string'; oneOf: readonly (infer O)[] }
  ? O
  : ValueOfType[K['type']];

type Leaf<K extends Spec> = K extends { path: `${string}.${string}` } ? never : K;
type Section<K extends Spec> = K extends { path: `${infer Head}.${string}` } ? Head : never;
/** The keys under `head.`, their paths relative to it. */
type Under<K extends Spec, Head extends string> = K extends { path: `${Head}.${infer Rest}` }
  ? Omit<K, 'path'> & { path: Rest }
  : never;

type WithDefault<K extends Spec> = Extract<Leaf<K>, { default: unknown }>['path'];
type WithoutDefault<K extends Spec> = Exclude<Leaf<K>['path'], WithDefault<K>>;
type LeafValue<K extends Spec, Name> = ValueOf<Extract<Leaf<K>, { path: Name }>>;

/** Paths become nested objects; a key with a default is always set, one without may be absent. */
type Tree<K extends Spec> = {
  [Name in Section<K> | WithDefault<K>]: Name extends Section<K> ? Tree<Under<K, Name>> : LeafValue<K, Name>;
} & { [Name in WithoutDefault<K>]?: LeafValue<K, Name> };

/**
 * The whole platform's configuration, typed: every key of `CONFIG_KEYS` at its path, plus what is
 * read apart from the key table. Each app reads only its own part of it.
 */
export type PlatformConfig = Tree<Key> & {
  /** Each model's price in USD per million tokens; a model left out has no price (runs show no cost). */
  pricing: Record<string, ModelPrice>;
  /** MCP servers whose tools the function-runner serves as functions. */
  mcp: { servers: McpServerConfig[] };
  /** Remote A2A agents the function-runner serves as functions `a2a_<name>`. */
  a2a: { agents: A2aAgentConfig[] };
  /** Sections that belong to one app and are validated there (e.g. `agents`). */
  sections: Record<string, unknown>;
  /** Values of every key marked secret, for central redaction. */
  secrets: string[];
};
