import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from '@app/config';
import { REPO_ROOT } from '@app/testing';

describe('README', () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

  it('documents every configuration variable', () => {
    expect(CONFIG_KEYS.map((k) => k.env).filter((env) => !readme.includes(`\`${env}\``))).toEqual([]);
  });

  it('names the two commands, and .ci/run runs the test one', () => {
    expect(readme).toMatch(/^npm start\b/m);
    expect(readme).toMatch(/^npm test\b/m);
    expect(readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8')).toMatch(/^npm test$/m);
  });
});
