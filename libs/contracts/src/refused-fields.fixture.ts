import { expect } from 'vitest';
import { InvalidParamsError } from './errors';
import { parseDto } from './validate';

/** The fields `parseDto` refuses in `input` as a `cls`, each once; none when it is accepted. */
export function refusedFields<T extends object>(cls: new () => T, input: unknown): string[] {
  try {
    parseDto(cls, input);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidParamsError);
    return [...new Set((err as InvalidParamsError).fields.map((f) => f.field))];
  }
}
