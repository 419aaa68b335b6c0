import { SetMetadata } from '@nestjs/common';
import type { Request } from 'express';

/** Metadata of a route whose request starts a run when `when(req)` holds (its body parsed). */
export const ADMITS_RUN = 'ac:admits-run';

/**
 * Marks a route that starts a run: its key's rate-limit hit and the run's admission are then
 * checked together, in one Redis round trip, when the request is authenticated.
 */
export const AdmitsRun = (when: (req: Request) => boolean = () => true) => SetMetadata(ADMITS_RUN, when);
