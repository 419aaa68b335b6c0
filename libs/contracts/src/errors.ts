import { Type } from 'class-transformer';
import { Allow, IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ERROR_CODES, type ErrorBodyShape, type ErrorCode } from './app-errors';

export * from './app-errors';

export class ErrorBody implements ErrorBodyShape {
  @IsIn(ERROR_CODES) code!: ErrorCode;
  @IsString() message!: string;
  /** `invalid_params`: one `{field, message}` per bad field. */
  @IsOptional() @Allow() details?: unknown;
}

/** Every error answer of the HTTP API: `{"error":{"code","message","details"}}`. */
export class ErrorResponse {
  @ValidateNested() @Type(() => ErrorBody) error!: ErrorBody;
}
