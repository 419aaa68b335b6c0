import type { PromptFunction } from '../../libs/protocol/src/index';

/**
 * A large toolset, as an agent wired to many MCP servers sees it: `count` functions named
 * `<service>_<verb>_<entity>`, each with a one-sentence description and two parameters.
 */
export function manyFunctions(count: number): PromptFunction[] {
  const services = ['github', 'jira', 'slack', 'stripe', 'hubspot', 'zendesk', 'notion', 'gitlab', 'asana'];
  const verbs = ['list', 'get', 'create', 'update', 'delete', 'search', 'archive', 'export'];
  const entities = ['issue', 'comment', 'user', 'project', 'label', 'file', 'webhook', 'invoice'];
  return Array.from({ length: count }, (_, i) => {
    const service = `${services[i % services.length]}${i >= 576 ? Math.floor(i / 576) + 1 : ''}`;
    const verb = verbs[Math.floor(i / services.length) % verbs.length];
    const entity = entities[Math.floor(i / (services.length * verbs.length)) % entities.length];
    return {
      name: `${service}_${verb}_${entity}`,
      description: `${verb} ${entity} records in ${service}, with filters, paging and sorting.`,
      parameters: {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'Record id' },
          limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
        },
        required: ['id'],
      },
    };
  });
}
