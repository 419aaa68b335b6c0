import { describe, expect, it } from 'vitest';
import { AgentProfileFields, parseDto } from '@app/contracts';
import { refusedFields } from './refused-fields.fixture';

const refused = (input: unknown) => refusedFields(AgentProfileFields, input);

describe("an agent profile's prompts", () => {
  it('takes a shipped language and templates by their names', () => {
    const profile = parseDto(AgentProfileFields, {
      name: 'helper',
      language: 'zh',
      prompts: { system: '你是助手。', routing_request: '{goal} / {message}' },
    });
    expect(profile).toMatchObject({ language: 'zh', prompts: { system: '你是助手。' } });
  });

  it('refuses a language not shipped, a template name the engine does not have, a template not a string', () => {
    expect(refused({ name: 'helper', language: 'fr' })).toEqual(['language']);
    expect(refused({ name: 'helper', prompts: { sytem: 'typo' } }).join()).toContain('sytem');
    expect(refused({ name: 'helper', prompts: { system: 42 } }).join()).toContain('system');
    expect(refused({ name: 'helper', prompts: { system: 'x'.repeat(20_001) } }).join()).toContain('system');
  });
});
