import { describe, expect, it } from 'vitest';
import { parseJsonActionReply } from './json-action.codec';
import { buildSystemPrompt } from './prompt';
import { countTokens } from './tokens';
import type { PromptFunction } from './types';
import { parseXmlToonReply } from './xml-toon.codec';

const cleanLogs: PromptFunction = {
  name: 'clean_logs',
  description: 'Delete log files older than N days.',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Directory to clean' },
      days: { type: 'integer', description: 'Keep the last N days', default: 7, minimum: 1, maximum: 365 },
      level: { type: 'string', enum: ['info', 'warn', 'error'] },
      patterns: { type: 'array', items: { type: 'string' } },
      dry_run: { type: 'boolean', default: false },
    },
    required: ['path'],
  },
};

const exampleIn = (prompt: string, pattern: RegExp) => prompt.match(pattern)?.[0] ?? '';

describe('buildSystemPrompt', () => {
  it('lists each function as a signature with type, optionality, range, enum, default and descriptions', () => {
    const prompt = buildSystemPrompt({ functions: [cleanLogs], protocol: 'xml-toon' });
    expect(prompt).toContain(`## Functions
clean_logs(path: string (Directory to clean), days?: integer 1..365 =7 (Keep the last N days), level?: info|warn|error, patterns?: string[], dry_run?: boolean =false): Delete log files older than N days.`);
  });

  it('explains the <every-row> element results may carry', () => {
    const prompt = buildSystemPrompt({ functions: [cleanLogs], protocol: 'xml-toon' });
    expect(prompt).toContain("A <result>'s <every-row> holds fields equal in every row of its table.");
  });

  it('opens with the instructions', () => {
    const prompt = buildSystemPrompt({
      functions: [cleanLogs],
      protocol: 'xml-toon',
      instructions: ' You run ops. ',
    });
    expect(prompt.startsWith('You run ops.\n\n## Calling functions')).toBe(true);
  });

  it('explains xml-toon with a worked example that the parser reads back', () => {
    const prompt = buildSystemPrompt({ functions: [cleanLogs], protocol: 'xml-toon' });
    const example = exampleIn(prompt, /<call name="add_items">[\s\S]*?<\/call>/);
    expect(example).toContain('\nlist: groceries\nitems[2]{name,qty}:\n Apple,3\n');
    expect(parseXmlToonReply(example)).toMatchObject({ kind: 'calls', calls: [{ name: 'add_items' }] });
  });

  it('explains json-action with both message shapes, each of which the parser reads', () => {
    const prompt = buildSystemPrompt({ functions: [cleanLogs], protocol: 'json-action' });
    expect(parseJsonActionReply(exampleIn(prompt, /\{"type":"action".*\}\}/))).toMatchObject({
      kind: 'calls',
    });
    expect(parseJsonActionReply(exampleIn(prompt, /\{"type":"final".*\}/))).toMatchObject({ kind: 'final' });
    expect(prompt).not.toContain('<call');
  });

  it('gives only the instructions for native function calling', () => {
    expect(buildSystemPrompt({ functions: [cleanLogs], protocol: 'native', instructions: 'Be brief.' })).toBe(
      'Be brief.',
    );
  });

  it('leaves the protocol out when there are no functions to call', () => {
    expect(buildSystemPrompt({ functions: [], protocol: 'xml-toon', instructions: 'Be brief.' })).toBe(
      'Be brief.',
    );
  });

  it('keeps the protocol explanation compact', () => {
    const bare = buildSystemPrompt({ functions: [], protocol: 'xml-toon' });
    const withOne = buildSystemPrompt({ functions: [cleanLogs], protocol: 'xml-toon' });
    expect(bare).toBe('');
    expect(countTokens(withOne)).toBeLessThan(300);
  });

  it('builds a prompt anew when anything it is built from differs, a function or an option', () => {
    const options = { functions: [cleanLogs], protocol: 'xml-toon' as const, instructions: 'Be brief.' };
    const first = buildSystemPrompt(options);
    expect(buildSystemPrompt({ ...options })).toBe(first);
    const renamed = { ...cleanLogs, description: 'Remove old logs.' };
    expect(buildSystemPrompt({ ...options, functions: [renamed] })).toContain('Remove old logs.');
    expect(buildSystemPrompt({ ...options, instructions: 'Be kind.' })).toMatch(/^Be kind\./);
    expect(buildSystemPrompt({ ...options, guide: 'Call as you like.' })).toContain('Call as you like.');
    expect(buildSystemPrompt({ ...options, definitionBudget: 5 })).toContain('call function_describe');
    expect(buildSystemPrompt(options)).toBe(first);
  });
});
