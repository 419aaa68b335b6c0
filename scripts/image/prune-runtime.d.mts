export declare function optionalPeerPaths(lock: {
  packages?: Record<string, { devOptional?: boolean; optional?: boolean }>;
}): string[];
export declare function sourceMaps(dir: string): string[];
