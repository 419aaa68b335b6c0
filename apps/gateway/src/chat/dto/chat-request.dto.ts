import { IsBoolean, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ID_PATTERN, MAX_MESSAGE_CHARS, NAME_PATTERN } from '@app/contracts';

/** Body of `POST /api/v1/chat`. */
export class ChatRequest {
  @IsString() @MinLength(1) @MaxLength(MAX_MESSAGE_CHARS) message!: string;
  @IsOptional() @IsString() @Matches(ID_PATTERN) session_id?: string;
  @IsOptional() @IsString() @Matches(NAME_PATTERN) agent?: string;
  @IsOptional() @IsBoolean() stream?: boolean;
}
