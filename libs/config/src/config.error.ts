/** One invalid setting: the key as the user writes it and what is wrong with its value. */
export interface ConfigProblem {
  key: string;
  detail: string;
}

/** Every invalid setting found at once, one line each, so a user fixes them in one go. */
export class ConfigError extends Error {
  readonly problems: ConfigProblem[];

  constructor(problems: ConfigProblem[]);
  constructor(key: string, detail: string);
  constructor(keyOrProblems: string | ConfigProblem[], detail?: string) {
    const problems =
      typeof keyOrProblems === 'string' ? [{ key: keyOrProblems, detail: detail ?? '' }] : keyOrProblems;
    super(describe(problems));
    this.name = 'ConfigError';
    this.problems = problems;
  }

  /** The first invalid key. */
  get key(): string {
    return this.problems[0]?.key ?? '';
  }
}

function describe(problems: ConfigProblem[]): string {
  if (problems.length === 1) return `invalid configuration: ${problems[0].key}: ${problems[0].detail}`;
  const lines = problems.map((p) => `  ${p.key}: ${p.detail}`);
  return [`invalid configuration (${problems.length} settings):`, ...lines].join('\n');
}
