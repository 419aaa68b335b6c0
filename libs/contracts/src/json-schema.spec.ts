import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsOptional, IsString, Matches, Max, ValidateNested } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { dtoSchemas } from './json-schema';
import { CreateDelayBody } from './scheduler';

class Inner {
  @IsInt() @Max(9) n!: number;
}

class Outer {
  @IsString() @Matches(/^[a-z]+$/) name!: string;
  @IsOptional() @IsIn(['a', 'b']) mode?: 'a' | 'b';
  @IsOptional() @IsString() note?: string | null;
  @IsArray() @IsString({ each: true }) tags!: string[];
  @ValidateNested() @Type(() => Inner) inner!: Inner;
  @IsArray() @ValidateNested({ each: true }) @Type(() => Inner) list!: Inner[];
}

class Untyped {
  @ValidateNested() nested!: unknown;
}

describe('dtoSchemas', () => {
  it('describes a DTO by its class-validator rules, nested DTOs by $ref to their own schema', () => {
    expect(dtoSchemas([Outer], { closed: true })).toEqual({
      Outer: {
        type: 'object',
        properties: {
          name: { type: 'string', pattern: '^[a-z]+$' },
          mode: { enum: ['a', 'b'] },
          note: { type: ['string', 'null'] },
          tags: { type: 'array', items: { type: 'string' } },
          inner: { $ref: '#/components/schemas/Inner' },
          list: { type: 'array', items: { $ref: '#/components/schemas/Inner' } },
        },
        required: ['name', 'tags', 'inner', 'list'],
        additionalProperties: false,
      },
      Inner: {
        type: 'object',
        properties: { n: { type: 'integer', maximum: 9 } },
        required: ['n'],
        additionalProperties: false,
      },
    });
  });

  it("takes a custom validator's own description of itself, and inherited fields", () => {
    const { properties, required } = dtoSchemas([CreateDelayBody]).CreateDelayBody as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(properties.run_at).toEqual({ type: 'string', format: 'date-time' });
    expect(properties.function).toMatchObject({ type: ['string', 'null'] });
    expect(properties.params).toEqual({ type: ['object', 'string', 'null'], maxLength: 64_000 });
    expect(required).toEqual(['name', 'run_at']);
  });

  it('refuses a nested field whose class it cannot know', () => {
    expect(() => dtoSchemas([Untyped])).toThrow(/Untyped.nested: @ValidateNested needs @Type/);
  });
});
