// TOON in the web console: apps/console/vite.config.mts builds this module in place of ./toon.ts. A
// browser has no synchronous loader for toon.ts's first-use load, and a page that shows a run's
// results decodes them at once anyway.
export { decode as decodeToon, encode as encodeToon, rawString } from '@toon-format/toon';
