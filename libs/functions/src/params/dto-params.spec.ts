import { IsIn, IsInt, IsOptional, IsString, Max, Min, ValidateBy } from 'class-validator';
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
