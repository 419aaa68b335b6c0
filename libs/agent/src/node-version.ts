/**
 * The oldest Node.js the SDK runs on: undici 8, the model clients' HTTP, needs 22.19. The package's
 * `engines` says the same (a unit test holds them together). Checked as the package is imported,
 * before undici is loaded, so an older Node gets one line saying so rather than a crash inside it.
 */
export const MIN_NODE_VERSION = '22.19.0';

function older(version: string, than: string): boolean {
  const a = version.split('.').map(Number);
  const b = than.split('.').map(Number);
  for (let i = 0; i < 3; i += 1) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
}

/** Throws an error of one line when `version` is older than MIN_NODE_VERSION. */
export function assertNodeVersion(version: string = process.versions.node): void {
  if (!older(version, MIN_NODE_VERSION)) return;
  const error = new Error(
    `@agentchassis/agent needs Node.js >= ${MIN_NODE_VERSION}; this is Node.js ${version} (upgrade Node to use it)`,
  );
  error.stack = `Error: ${error.message}`;
  throw error;
}

assertNodeVersion();
