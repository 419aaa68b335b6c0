import { plainToInstance, Transform } from 'class-transformer';
import {
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';
import { describe, expect, it } from 'vitest';
import {
  AgentRunRequest,
  ChatRequest,
  FnExecRequest,
  FunctionCallBatch,
  InvalidParamsError,
  parseDto,
  schemaValidationGap,
} from '@app/contracts';

class Counted {
  @Min(1) n!: number;
}
class Dotted {
  @IsString() @Matches(/^.{1,3}$/) s!: string;
}
class Longer {
  @IsString() @MinLength(2) s!: string;
}
class Defaulted {
  @IsOptional() @IsInt() n?: number = 5;
}
class Transformed {
  @Transform(({ value }) => Number(value)) @IsInt() n!: number;
}
/** The later rule wins the merge: `number`, which lets 1.5 through. */
class Loose {
  @IsNumber() @IsInt() n!: number;
}

/** Whether class-validator, as parseDto used it before ajv, accepts the input. */
function classValidatorAccepts(cls: new () => object, input: object): boolean {
  const instance = plainToInstance(cls, input, { enableImplicitConversion: false });
  return validateSync(instance, { whitelist: true, forbidNonWhitelisted: true }).length === 0;
}

function parseDtoAccepts(cls: new () => object, input: object): boolean {
  try {
    parseDto(cls, input);
    return true;
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidParamsError);
    return false;
  }
}

describe('strict DTO schemas (ajv in parseDto)', () => {
  it('checks the DTOs of the busiest routes with ajv', () => {
    for (const cls of [FnExecRequest, FunctionCallBatch, AgentRunRequest, ChatRequest])
      expect(schemaValidationGap(cls), cls.name).toBeUndefined();
  });

  it('leaves to class-validator a DTO its schema would check more loosely, and says why', () => {
    expect(schemaValidationGap(Counted)).toBeUndefined();
    expect(schemaValidationGap(Dotted)).toMatch(/Dotted.s: matches/);
    expect(schemaValidationGap(Longer)).toMatch(/Longer.s: minLength/);
    expect(schemaValidationGap(Defaulted)).toMatch(/Defaulted.n has a default/);
    expect(schemaValidationGap(Transformed)).toMatch(/@Transform/);
    expect(schemaValidationGap(Loose)).toMatch(/Loose.n: isInt needs type integer/);
  });

  it('accepts exactly what class-validator accepts', () => {
    const cases: [new () => object, object][] = [
      [Counted, { n: '5' }],
      [Counted, { n: 0.5 }],
      [Counted, { n: 3 }],
      [FnExecRequest, { params: {} }],
      [FnExecRequest, { params: [] }],
      [FnExecRequest, { params: {}, timeout_ms: 1.5 }],
      [FnExecRequest, { params: {}, caller: null }],
      [FnExecRequest, { params: {}, caller: { run_id: 5 } }],
      [FnExecRequest, { params: {}, caller: { extra: 1 } }],
      [FnExecRequest, { params: {}, allowed_tools: 'fetch' }],
      [FnExecRequest, { params: {}, allowed_tools: ['Fetch'] }],
      [FnExecRequest, { params: {}, call_id: 'a'.repeat(65) }],
      [FnExecRequest, { params: {}, caller: { scopes: ['chat', 'nope'] } }],
      [AgentRunRequest, { message: '' }],
      [AgentRunRequest, { message: '\uFE0F' }],
      [AgentRunRequest, { message: 'hi', history: [{ role: 'user', content: 'a' }] }],
      [AgentRunRequest, { message: 'hi', history: [{ role: 'robot', content: 'a' }] }],
      [AgentRunRequest, { tool_results: [{ call_id: 'call_a_1', content: 'x' }] }],
      [ChatRequest, { message: 'hi', agent: 'bad name' }],
      [ChatRequest, { message: 'hi', __proto__: { x: 1 } }],
      [ChatRequest, JSON.parse('{"message":"hi","__proto__":{"x":1}}') as object],
    ];
    for (const [cls, input] of cases)
      expect(parseDtoAccepts(cls, input), `${cls.name} ${JSON.stringify(input)}`).toBe(
        classValidatorAccepts(cls, input),
      );
  });
});
