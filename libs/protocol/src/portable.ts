// The protocol as the embedded SDK loads it at its start (`@app/protocol/portable`, as the
// contracts, the functions library and the run engine have theirs): what declaring and checking
// functions and defining an agent need (the allow-list, the parameter validator, the token
// counter, the protocols' guides) as values; every other export as a type only. The codecs, the
// prompt builder and the result encoder come with a turn, through the whole library
// (`@app/protocol`), which a turn's machinery imports (docs/benchmarks.md).
export { allowsEverything, isAllowed } from './allow-list';
export { compileSchema, matchesType, validateParams } from './params-validator';
export { PARAMETER_TYPES } from './types';
export { countTokens, encodingForModel } from './tokens';
export { JSON_ACTION_GUIDE, JSON_ACTION_REPAIR, XML_TOON_GUIDE, XML_TOON_REPAIR } from './guides';
export type * from './index';
