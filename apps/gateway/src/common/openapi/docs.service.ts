import { Inject, Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { PlatformConfig } from '@app/config';
import type { DtoClass, JsonSchema } from '@app/contracts';
import { PLATFORM_CONFIG, platformVersion } from '@app/runtime';
import { buildOpenApiDocument } from './openapi-document';

/** The gateway's OpenAPI document, built from its controllers on first use and kept. */
@Injectable()
export class DocsService {
  private document?: JsonSchema;

  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  openApiDocument(): JsonSchema {
    this.document ??= buildOpenApiDocument(
      this.discovery
        .getControllers()
        .flatMap((wrapper) => (wrapper.metatype ? [wrapper.metatype as DtoClass] : [])),
      {
        version: platformVersion(),
        metricsPublic: this.config.security.metrics_public,
        docsPublic: this.config.security.docs_public,
      },
    );
    return this.document;
  }
}
