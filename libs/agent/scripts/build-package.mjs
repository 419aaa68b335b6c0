// Builds the packable SDK into libs/agent/dist (see scripts/build-lib-package.mjs): the SDK with
// the run engine, protocols, model clients, the portable part of the functions library and the
// contracts, as relative files; the npm packages they use are the package's dependencies.
import { join } from 'node:path';
import { buildLibPackage } from '../../../scripts/build-lib-package.mjs';

buildLibPackage(join(import.meta.dirname, '..'));
