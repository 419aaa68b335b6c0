/** What a function may be called: snake_case, at most 64 characters. */
export const FUNCTION_NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
