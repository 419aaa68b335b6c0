// The runner's sandbox as benchmarks drive it directly (bench/functions measures a call's cost in
// and out of it): a benchmark reaches an app only through its testing kit.
import { join } from 'node:path';
import { REPO_ROOT } from '@app/testing';
import { sandboxScript } from '../functions/sandbox/sandbox-process';

export { SandboxProcess } from '../functions/sandbox/sandbox-process';

/** The sandbox's worker as the build ships it (`npm run build` first). */
export function builtSandboxScript(): string {
  return sandboxScript(join(REPO_ROOT, 'dist/apps/function-runner/src/functions/sandbox'));
}
