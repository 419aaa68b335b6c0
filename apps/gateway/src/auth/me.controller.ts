import { Controller, Get } from '@nestjs/common';
import { type Scope, WhoAmIView } from '@app/contracts';
import { ApiRoute } from '../common/openapi/api-route.decorator';
import { CurrentKeyId, CurrentPrincipal, CurrentScopes } from './principal.decorator';

/** Any valid key may ask who it is: the web console shows only the views its scopes allow. */
@Controller('api/v1/me')
export class MeController {
  @Get()
  @ApiRoute({ summary: 'The calling key: its principal, scopes and id', tag: 'keys', response: WhoAmIView })
  me(
    @CurrentPrincipal() principal: string,
    @CurrentScopes() scopes: Scope[],
    @CurrentKeyId() keyId: string,
  ): WhoAmIView {
    return { principal, scopes, key_id: keyId };
  }
}
