import type { ServiceInfo } from '@app/runtime';

/** Who a run's lease names while this executor runs it: the executor's instance id. */
export function leaseOwnerOf(info: ServiceInfo): string {
  return info.instance;
}
