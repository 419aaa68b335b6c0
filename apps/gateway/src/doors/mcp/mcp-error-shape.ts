import type { ErrorShape } from '../../common/error-shapes';
import { jsonRpcErrorShape } from '../json-rpc-error';

/** Where an MCP client finds how to authorize against `/mcp` (RFC 9728). */
export function resourceMetadataUrl(base: string): string {
  return `${base}/.well-known/oauth-protected-resource/mcp`;
}

/**
 * `/mcp` answers errors as JSON-RPC; a 401 also says where the resource's metadata is
 * (`WWW-Authenticate: Bearer resource_metadata=…`), as MCP clients discover authorization.
 */
export const mcpErrorShape: ErrorShape = (error, exception, request) => {
  const shaped = jsonRpcErrorShape(error, exception, request);
  if (error.status !== 401) return shaped;
  const challenge = `Bearer resource_metadata="${resourceMetadataUrl(request.base)}"`;
  return { ...shaped, headers: { ...shaped.headers, 'WWW-Authenticate': challenge } };
};
