import { describe, expect, it } from 'vitest';
import { Param, paramsSchema } from '@app/functions';

class SendMessageParams {
  @Param({ description: 'recipient', required: true }) to!: string;
  @Param({ description: 'text', required: true }) message!: string;
  @Param({ description: 'channel', default: 'console', enum: ['console', 'email', 'sms', 'wechat'] })
  channel?: string;
}

class RangeParams {
  @Param({ description: 'days to keep', type: 'integer', default: 7, min: 1, max: 365 }) days?: number;
  @Param({ description: 'ratio', min: 0, max: 1 }) ratio?: number;
  @Param({ description: 'preview only' }) dry_run?: boolean;
  @Param({ description: 'ids', items: 'integer', min: 1 }) ids?: number[];
  @Param({ description: 'free-form', type: 'object' }) meta?: Record<string, unknown>;
}

describe('@Param reflection', () => {
  it('reflects a parameter class into a JSON-Schema-shaped definition, in declaration order', () => {
    expect(paramsSchema(SendMessageParams)).toEqual({
      type: 'object',
      properties: {
        to: { type: 'string', description: 'recipient' },
        message: { type: 'string', description: 'text' },
        channel: {
          type: 'string',
          description: 'channel',
          default: 'console',
          enum: ['console', 'email', 'sms', 'wechat'],
        },
      },
      required: ['to', 'message'],
    });
  });

  it('infers string, number, boolean and array from the TS type and carries ranges and item types', () => {
    const { properties, required } = paramsSchema(RangeParams);
    expect(properties.days).toEqual({
      type: 'integer',
      description: 'days to keep',
      default: 7,
      minimum: 1,
      maximum: 365,
    });
    expect(properties.ratio).toMatchObject({ type: 'number', minimum: 0, maximum: 1 });
    expect(properties.dry_run).toEqual({ type: 'boolean', description: 'preview only' });
    expect(properties.ids).toEqual({
      type: 'array',
      description: 'ids',
      items: { type: 'integer', minimum: 1 },
    });
    expect(properties.meta).toEqual({ type: 'object', description: 'free-form' });
    expect(required).toEqual([]);
  });

  it('returns a copy, so a caller cannot change the definition', () => {
    paramsSchema(SendMessageParams).properties.to.description = 'changed';
    expect(paramsSchema(SendMessageParams).properties.to.description).toBe('recipient');
  });

  it('refuses declarations it cannot turn into a schema, naming the field', () => {
    expect(() => {
      class NoType {
        @Param({ description: 'x' }) meta?: Record<string, unknown>;
      }
      return NoType;
    }).toThrow(/NoType\.meta: cannot infer the type/);
    expect(() => {
      class BadRange {
        @Param({ description: 'x', min: 1 }) name?: string;
      }
      return BadRange;
    }).toThrow(/BadRange\.name: min and max apply to numbers only/);
    expect(() => {
      class BadDefault {
        @Param({ description: 'x', type: 'integer', default: 'seven' }) days?: number;
      }
      return BadDefault;
    }).toThrow(/default "seven" is not of type integer/);
  });

  it('keeps a parent class’s parameters in a subclass without changing the parent', () => {
    class Extended extends SendMessageParams {
      @Param({ description: 'priority', type: 'integer' }) priority?: number;
    }
    expect(Object.keys(paramsSchema(Extended).properties)).toEqual(['to', 'message', 'channel', 'priority']);
    expect(Object.keys(paramsSchema(SendMessageParams).properties)).toEqual(['to', 'message', 'channel']);
  });
});
