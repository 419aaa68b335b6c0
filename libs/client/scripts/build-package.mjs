// Builds the packable client into libs/client/dist (see scripts/build-lib-package.mjs): the
// contracts keep only their declarations, since the client imports only their types.
import { join } from 'node:path';
import { buildLibPackage } from '../../../scripts/build-lib-package.mjs';

buildLibPackage(join(import.meta.dirname, '..'), { typesOnly: ['contracts', 'protocol'] });
