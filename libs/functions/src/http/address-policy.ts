import ipaddr from 'ipaddr.js';

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

const REASONS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private (unique local) address',
  linkLocal: 'a link-local address (where cloud metadata services live)',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  carrierGradeNat: 'a shared (carrier-grade NAT) address',
  reserved: 'a reserved address',
  rfc6052: 'a NAT64 address, which can reach internal IPv4 hosts',
  '6to4': 'a 6to4 address, which can reach internal IPv4 hosts',
  teredo: 'a Teredo address, which can reach internal IPv4 hosts',
  rfc6145: 'an IPv4-translated address, which can reach internal IPv4 hosts',
  deprecatedSiteLocal: 'a site-local address',
};

/**
 * Only public unicast addresses may be reached by http_request. An IPv4-mapped IPv6 address is
 * judged as the IPv4 address it carries; anything in ::/80 (IPv4-compatible and other legacy
 * forms that may embed an internal IPv4 address) is refused.
 */
export function judgeAddress(address: string): AddressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, reason: 'not an IP address' };
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range !== 'unicast') return { allowed: false, reason: REASONS[range] ?? `a ${range} address` };
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 5).every((part) => part === 0)) {
    return { allowed: false, reason: 'a reserved IPv6 address that may embed an IPv4 address' };
  }
  return { allowed: true };
}
