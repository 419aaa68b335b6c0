export declare const SERVICES: string[];
export declare const MAX_REPLICAS: number;
export declare class UsageError extends Error {}
export declare function parseStartArgs(
  argv: string[],
): { build: boolean; replicas: Record<string, number>; help?: undefined } | { help: string };
