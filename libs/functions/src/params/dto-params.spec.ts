import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { paramsFromDto, paramsSchema, parseParams } from '@app/functions';

const IsTextOrObject = () =>
  ValidateBy(
    { name: 'isTextOrObject', validator: { validate: () => true } },
    { context: { jsonSchema: { type: ['object', 'string'] } } },
  );

class CreateThingBody {
  @IsString() name!: string;
  @IsOptional() @IsIn(['low', 'high']) level?: string;
  @IsOptional() @IsInt() @Min(0) @Max(9) copies?: number;
  @IsOptional() @IsTextOrObject() spec?: string | Record<string, unknown>;
  @IsOptional() @IsString() owner?: string;
}

describe('paramsFromDto', () => {
  it('reads type, required, choices and bounds from the DTO, in the order listed, and only the fields listed', () => {
    const Params = paramsFromDto(CreateThingBody, {
      copies: { description: 'how many' },
      name: { description: 'the name' },
      level: { description: 'how loud' },
    });
    expect(paramsSchema(Params)).toEqual({
      type: 'object',
      properties: {
        copies: { type: 'integer', description: 'how many', minimum: 0, maximum: 9 },
        name: { type: 'string', description: 'the name' },
        level: { type: 'string', description: 'how loud', enum: ['low', 'high'] },
      },
      required: ['name'],
    });
  });

  it('carries a string’s pattern and length, so the schema alone checks them', () => {
    class TagBody {
      @IsString() @Matches(/^[a-z]+$/) @MaxLength(8) tag!: string;
    }
    const Params = paramsFromDto(TagBody, { tag: { description: 'a tag' } });
    expect(paramsSchema(Params).properties.tag).toEqual({
      type: 'string',
      description: 'a tag',
      pattern: '^[a-z]+$',
      maxLength: 8,
    });
    expect(() => parseParams(Params, { tag: 'Not OK' })).toThrow(/tag: must match pattern/);
    expect(() => parseParams(Params, { tag: 'waytoolong' })).toThrow(
      /tag: must NOT have more than 8 characters/,
    );
  });

  it('lets the function narrow what the model sees and add fields of its own', () => {
    const Params = paramsFromDto<CreateThingBody, { page?: number }>(CreateThingBody, {
      name: { description: 'the name' },
      level: { description: 'how loud', enum: ['low'], default: 'low' },
      spec: { description: 'JSON text', type: 'string' },
      page: { description: 'page', type: 'integer', min: 1 },
    });
    const { properties } = paramsSchema(Params);
    expect(properties.level).toEqual({
      type: 'string',
      description: 'how loud',
      enum: ['low'],
      default: 'low',
    });
    expect(properties.spec).toEqual({ type: 'string', description: 'JSON text' });
    expect(properties.page).toEqual({ type: 'integer', description: 'page', minimum: 1 });
    expect({ ...parseParams(Params, { name: 'a', page: 2 }) }).toEqual({ name: 'a', level: 'low', page: 2 });
    expect(() => parseParams(Params, { name: 'a', level: 'high', owner: 'x' })).toThrow(
      /level: must be one of "low".*owner: should not exist/,
    );
  });

  it('refuses a list without a field the DTO requires, or a field whose type it cannot tell', () => {
    expect(() => paramsFromDto(CreateThingBody, { level: { description: 'x' } })).toThrow(
      /CreateThingBody\.name is required/,
    );
    expect(() =>
      paramsFromDto(CreateThingBody, { name: { description: 'x' }, spec: { description: 'x' } }),
    ).toThrow(/CreateThingBodyParams\.spec: cannot infer the type/);
  });
});
