/** Injection tokens shared by every service. */
export const PLATFORM_CONFIG = Symbol('PLATFORM_CONFIG');
export const SERVICE_INFO = Symbol('SERVICE_INFO');

export interface ServiceInfo {
  name: import('@app/contracts').ServiceName;
  instance: string;
  version: string;
  startedAt: number;
}
