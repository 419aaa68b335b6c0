import { Type } from 'class-transformer';
import { Allow, IsIn, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';

export class JsonRpcErrorDetail {
  /** JSON-RPC's code: -32700 parse error, -32600 invalid request, -32602 invalid params, -32603 internal, -32000 a limit. */
  @IsInt() code!: number;
  @IsString() message!: string;
  /** The platform's own error code and details. */
  @IsOptional() @Allow() data?: unknown;
}

/** Errors of the JSON-RPC doors (`/mcp`, `/a2a/:agent`) before a method ran: the HTTP status tells too. */
export class JsonRpcErrorResponse {
  @IsIn(['2.0']) jsonrpc!: '2.0';
  @IsOptional() @Allow() id!: null;
  @ValidateNested() @Type(() => JsonRpcErrorDetail) error!: JsonRpcErrorDetail;
}
