// The contracts as the embedded SDK loads them (`@app/contracts/portable`): the error classes and
// the function-name pattern as values, every other contract as a type only. The DTO classes stay
// out of its import graph with class-validator and class-transformer (~20 MB of an idle process,
// docs/benchmarks.md): the SDK validates with ajv and never reads a DTO.
export {
  AppError,
  BadRequestError,
  ERROR_CODES,
  FunctionFailedError,
  InvalidParamsError,
  TimeoutError,
  UnavailableError,
  isErrorBody,
  toAppError,
} from './app-errors';
export { FUNCTION_NAME_PATTERN } from './function-names';
export type * from './index';
