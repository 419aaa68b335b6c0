import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import {
  type MemoryForgetQuery,
  type MemoryForgetReply,
  type MemorySearchQuery,
  type MemorySearchReply,
  Routes,
} from '@app/contracts';

/** The caller's long-term memory: searched and forgotten by an executor, for the caller only. */
@Injectable()
export class MemoryService {
  constructor(@Inject(Bus) private readonly bus: Bus) {}

  search(query: MemorySearchQuery, principal: string): Promise<MemorySearchReply> {
    return this.bus.request(Routes.agentMemorySearch, principal ? { ...query, principal } : query);
  }

  forget(query: MemoryForgetQuery, principal: string): Promise<MemoryForgetReply> {
    return this.bus.request(Routes.agentMemoryForget, principal ? { ...query, principal } : query);
  }
}
