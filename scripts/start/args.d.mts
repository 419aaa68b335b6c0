export declare const SERVICES: string[];
export declare const MAX_REPLICAS: number;
export declare class UsageError extends Error {}
export declare const CLUSTER_REPLICAS: Record<string, number>;
export declare function parseStartArgs(
  argv: string[],
):
  { build: boolean; cluster: boolean; replicas: Record<string, number>; help?: undefined } | { help: string };
