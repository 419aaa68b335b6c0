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

  it('asks a new user for no install step before the two commands', () => {
    const start = readme.slice(0, readme.indexOf('## Using it'));
    expect(start).not.toMatch(/^\s*npm (ci|install)\b|npm ci &&/m);
    const scripts = (
      JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    for (const command of ['start', 'test', 'cli', 'keys:create', 'db:migrate', 'llm:scripted'])
      expect(scripts[command], command).toMatch(/^(exec )?node scripts\/run\.mjs\b/);
  });

  it('lists each route once in the route table', () => {
    const table = readme.slice(readme.indexOf('| route | scope | what |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    const routes = rows.flatMap((row) => {
      let methods: string[] = [];
      return [
        ...row.split(' | ')[0].matchAll(/((?:(?:GET|POST|PUT|DELETE)[`/]*)*)\s*(\/[\w/:.()-]+)/g),
      ].flatMap(([, named, path]) => {
        if (named) methods = named.match(/GET|POST|PUT|DELETE/g) ?? [];
        return methods.map((method) => `${method} ${path}`);
      });
    });
    const seen = new Set<string>();
    const twice = routes.filter((route) => seen.size === seen.add(route).size);
    expect(twice).toEqual([]);
  });
});
