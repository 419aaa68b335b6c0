import { CHINESE_TEMPLATES } from './templates.zh';
import { ENGLISH_TEMPLATES } from './templates.en';
import type { PromptLanguage, PromptTemplates } from './templates';

const SHIPPED: Record<PromptLanguage, PromptTemplates> = { en: ENGLISH_TEMPLATES, zh: CHINESE_TEMPLATES };

/**
 * Replaces each `{name}` whose name is a given variable; any other brace (the JSON in a template)
 * stays as written. Values are inserted once, never substituted again. A line that is only a
 * variable whose value is empty is left out, so an empty list leaves no blank line.
 */
export function renderTemplate(template: string, variables: Record<string, string | number>): string {
  const given = (name: string) => Object.hasOwn(variables, name);
  return template
    .split('\n')
    .filter((line) => {
      const only = /^\{([a-z_]+)\}$/.exec(line);
      return !(only && given(only[1]) && String(variables[only[1]]) === '');
    })
    .join('\n')
    .replace(/\{([a-z_]+)\}/g, (whole, name: string) => (given(name) ? String(variables[name]) : whole));
}

/** What an agent (a definition, a profile) says of its prompts. */
export interface PromptChoice {
  language?: PromptLanguage;
  prompts?: Partial<PromptTemplates>;
}

/** The templates an agent's prompts are written with: its language's, with its own overrides. */
export class PromptSet {
  private readonly templates: PromptTemplates;

  constructor(choice: PromptChoice) {
    this.templates = { ...SHIPPED[choice.language ?? 'en'], ...definedOnly(choice.prompts) };
  }

  render(name: keyof PromptTemplates, variables: Record<string, string | number> = {}): string {
    const format: Record<string, string> =
      name === 'plan_format' ? {} : { plan_format: this.templates.plan_format };
    return renderTemplate(this.templates[name], { ...format, ...variables });
  }
}

/** Overrides given as `undefined` (an optional field left out) keep the shipped template. */
function definedOnly(prompts: Partial<PromptTemplates> = {}): Partial<PromptTemplates> {
  return Object.fromEntries(Object.entries(prompts).filter(([, text]) => text !== undefined));
}
