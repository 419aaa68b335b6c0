import type { AgentChassisClient } from '@app/client';

/** What every view is given: the signed-in client, the key's scopes, and the route's argument. */
export interface ViewProps {
  client: AgentChassisClient;
  scopes: string[];
  arg?: string;
}
