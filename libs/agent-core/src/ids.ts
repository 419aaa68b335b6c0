/** `run_3f9c…`: a prefix that says what the id names, then 32 hex digits. */
export function newId(prefix: 'run' | 'ses' | 'msg' | 'call'): string {
  return `${prefix}_${globalThis.crypto.randomUUID().replaceAll('-', '')}`;
}
