import { IsInt, IsObject, IsOptional, Max, Min } from 'class-validator';

/** Body of `POST /api/v1/functions/:name/invoke`. */
export class InvokeFunctionDto {
  @IsOptional() @IsObject() params?: Record<string, unknown>;
  /** The call's time limit; the function's own default when absent. */
  @IsOptional() @IsInt() @Min(1) @Max(3_600_000) timeout_ms?: number;
}
