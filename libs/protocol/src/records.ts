/**
 * Sets an own enumerable property, even for a key such as "__proto__" that plain assignment
 * would turn into a prototype change: parameter names come from the model.
 */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Reads a property only if the record owns it, never one inherited from Object.prototype. */
export function ownValue<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
