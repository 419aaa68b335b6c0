import { Inject, Injectable } from '@nestjs/common';
import { type ClientTool, type FieldError, InvalidParamsError } from '@app/contracts';
import type { AgentProfile } from '../agents/agent-profile';
import { FunctionCatalogService } from '../tools/function-catalog.service';

/**
 * Accepts a caller's tools for a run, before it starts. A tool may not share its name with any
 * platform function: a call by that name would be ambiguous. A run can pause for them only in a
 * ReAct loop speaking a text protocol (whose transcript the session can replay).
 */
@Injectable()
export class ClientToolsService {
  constructor(@Inject(FunctionCatalogService) private readonly catalog: FunctionCatalogService) {}

  async offer(tools: ClientTool[] | undefined, profile: AgentProfile): Promise<ClientTool[] | undefined> {
    if (!tools || tools.length === 0) return undefined;
    if (profile.protocol === 'native' || profile.mode === 'plan') {
      throw new InvalidParamsError(
        [
          {
            field: 'client_tools',
            message: `agent '${profile.name}' (${profile.mode}, ${profile.protocol}) cannot call client tools: that needs a react agent with the xml-toon or json-action protocol`,
          },
        ],
        'invalid client tools',
      );
    }
    const platform = await this.catalog.all();
    const seen = new Set<string>();
    const errors: FieldError[] = [];
    tools.forEach((tool, i) => {
      const field = `client_tools[${i}].name`;
      if (platform.has(tool.name))
        errors.push({ field, message: `'${tool.name}' is the name of a platform function; rename the tool` });
      else if (seen.has(tool.name)) errors.push({ field, message: `'${tool.name}' is given twice` });
      seen.add(tool.name);
    });
    if (errors.length > 0) throw new InvalidParamsError(errors, 'invalid client tools');
    return tools;
  }
}
