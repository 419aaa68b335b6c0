import { describe, expect, it } from 'vitest';
import { judgeAddress } from './address-policy';

describe('judgeAddress', () => {
  it.each([
    ['127.0.0.1', /loopback/],
    ['10.0.0.1', /private/],
    ['172.16.5.4', /private/],
    ['192.168.1.1', /private/],
    ['169.254.169.254', /link-local .*metadata/],
    ['100.100.100.200', /carrier-grade NAT/],
    ['0.0.0.0', /unspecified/],
    ['255.255.255.255', /broadcast/],
    ['224.0.0.1', /multicast/],
    ['::1', /loopback/],
    ['::', /unspecified/],
    ['::ffff:127.0.0.1', /loopback/],
    ['::ffff:a9fe:a9fe', /link-local/],
    ['::7f00:1', /may embed an IPv4/],
    ['fe80::1', /link-local/],
    ['fd00:ec2::254', /unique local/],
    ['64:ff9b::a00:1', /NAT64/],
    ['2002:a00:1::', /6to4/],
  ])('refuses %s', (address, reason) => {
    const verdict = judgeAddress(address);
    expect(verdict.allowed).toBe(false);
    expect(verdict.allowed ? '' : verdict.reason).toMatch(reason);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111'])('allows the public address %s', (address) => {
    expect(judgeAddress(address)).toEqual({ allowed: true });
  });

  it('refuses what is not an address at all', () => {
    expect(judgeAddress('example.com')).toEqual({ allowed: false, reason: 'not an IP address' });
  });
});
