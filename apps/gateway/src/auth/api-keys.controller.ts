import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiKeyList, CreatedApiKey, CreateApiKeyRequest, parseDto } from '@app/contracts';
import { ApiKeysService } from './api-keys.service';
import { ApiRoute } from '../common/openapi/api-route.decorator';

@Controller('api/v1/keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @ApiRoute({
    summary: 'Create an API key (the key is shown once)',
    body: CreateApiKeyRequest,
    response: CreatedApiKey,
  })
  create(@Body() body: unknown) {
    return this.keys.create(parseDto(CreateApiKeyRequest, body, 'API key'));
  }

  @Get()
  @ApiRoute({ summary: 'Every API key, without the keys themselves', response: ApiKeyList })
  async list() {
    return { keys: await this.keys.list() };
  }

  @Delete(':id')
  @ApiRoute({ summary: 'Revoke an API key', response: null })
  @HttpCode(204)
  async revoke(@Param('id') id: string) {
    await this.keys.revoke(id);
  }
}
