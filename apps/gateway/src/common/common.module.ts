import { Global, Module } from '@nestjs/common';
import { ErrorShapes } from './error-shapes';

/** What every door shares: the table of error shapes by route prefix. */
@Global()
@Module({ providers: [ErrorShapes], exports: [ErrorShapes] })
export class CommonModule {}
