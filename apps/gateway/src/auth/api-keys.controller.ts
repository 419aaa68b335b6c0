import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CreateApiKeyRequest, parseDto } from '@app/contracts';
import { ApiKeysService } from './api-keys.service';

@Controller('api/v1/keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  create(@Body() body: unknown) {
    return this.keys.create(parseDto(CreateApiKeyRequest, body, 'API key'));
  }

  @Get()
  async list() {
    return { keys: await this.keys.list() };
  }

  @Delete(':id')
  @HttpCode(204)
  async revoke(@Param('id') id: string) {
    await this.keys.revoke(id);
  }
}
