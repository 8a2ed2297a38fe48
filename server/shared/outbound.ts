import dns, { type LookupAddress } from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import ipaddr from 'ipaddr.js';
import type * as Undici from 'undici';
import { lazyPackage } from './lazy-package.ts';

// undici (~75 ms to load) only when the first such request is made.
const undici = lazyPackage<typeof Undici>('undici');

// Requests the server makes because of what a user typed (a git host, an MCP server's URL) must
// not reach what only the server can: its loopback, the private network it sits in, a cloud's
// metadata service, or its own addresses. Checked on the address each connection actually goes
// to — after DNS, for every redirect, so a name that resolves differently the second time
// (DNS rebinding) gains nothing — not on the URL. Only public unicast addresses pass, unless the
// operator allows a range (a self-hosted GitLab on the LAN). The alternative, making such
// requests from a conversation's network namespace, was not taken: the settings check and the
// git calls have no conversation, and a namespace per request costs a sandbox start.

/** Ranges an operator lets through anyway, parsed from OUTBOUND_ALLOWED_RANGES. */
export type AllowedRanges = [ipaddr.IPv4 | ipaddr.IPv6, number][];

/** A connection refused before it was made: the address is not the public internet's. */
export class InternalAddressRefused extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      `${host} is not reachable from Atelier: it is ${host === address ? 'an' : `${address}, an`} internal address. An operator can allow a range with OUTBOUND_ALLOWED_RANGES.`,
    );
  }
}

/** Parses `10.0.0.0/8, 192.168.1.20` (a single address is its own range); throws on anything else. */
export function parseAllowedRanges(text: string): AllowedRanges {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      if (item.includes('/')) return ipaddr.parseCIDR(item);
      const address = ipaddr.parse(item);
      return [address, address.kind() === 'ipv4' ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number];
    });
}

/** The machine's own addresses (a public one among them when it has one). */
function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const entries of Object.values(os.networkInterfaces()))
    for (const entry of entries ?? []) own.add(ipaddr.process(entry.address.split('%')[0] as string).toString());
  return own;
}

/** Whether a connection to `address` may be made: public unicast, or in an allowed range. */
export function isAllowedAddress(address: string, allowed: AllowedRanges): boolean {
  if (!ipaddr.isValid(address)) return false;
  // ::ffff:127.0.0.1 is 127.0.0.1.
  const parsed = ipaddr.process(address);
  if (allowed.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits))) return true;
  return parsed.range() === 'unicast' && !ownAddresses().has(parsed.toString());
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * `fetch` for requests made on a user's behalf: in a hosted installation (`guarded`) its
 * connections reach only allowed addresses, else it is the platform's fetch.
 */
export function outboundFetch(policy: { guarded: boolean; allowed: AllowedRanges }): typeof fetch {
  if (!policy.guarded) return fetch;
  let dispatcher: Undici.Dispatcher | undefined;
  return ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    undici().fetch(
      input as never,
      { ...(init as object), dispatcher: (dispatcher ??= guardedAgent(policy.allowed)) } as never,
    )) as unknown as typeof fetch;
}

/** The addresses of `hostname` that may be connected to; a refusal when it has none. */
function usableAddresses(hostname: string, addresses: LookupAddress[], ranges: AllowedRanges) {
  const usable = addresses.filter((entry) => isAllowedAddress(entry.address, ranges));
  if (usable.length === 0) throw new InternalAddressRefused(hostname, addresses[0]?.address ?? hostname);
  return usable;
}

/**
 * The address a connection to `host` (a name or a literal address) goes to, when it may be
 * made; throws InternalAddressRefused when not. Connect to the answer, not to the name again.
 */
export async function allowedAddressOf(host: string, ranges: AllowedRanges): Promise<LookupAddress> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const family = net.isIP(bare);
  const addresses = family ? [{ address: bare, family }] : await dns.promises.lookup(bare, { all: true });
  return usableAddresses(bare, addresses, ranges)[0] as LookupAddress;
}

/** An undici agent whose every connection goes to an allowed address, or is refused. */
function guardedAgent(ranges: AllowedRanges): Undici.Dispatcher {
  const { Agent, buildConnector } = undici();
  const allowed = (address: string) => isAllowedAddress(address, ranges);
  const lookup = (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      let usable: LookupAddress[];
      try {
        usable = usableAddresses(hostname, addresses, ranges);
      } catch (refused) {
        return callback(refused as InternalAddressRefused, []);
      }
      const first = usable[0] as LookupAddress;
      if (options.all) callback(null, usable);
      else callback(null, first.address, first.family);
    });
  };
  const connectTo = buildConnector({ lookup } as Undici.buildConnector.BuildOptions);
  return new Agent({
    connect: (options, callback) => {
      // A literal address is connected to as written: Node does not look it up.
      const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
      if (net.isIP(host) && !allowed(host)) return callback(new InternalAddressRefused(host, host), null);
      connectTo(options, callback);
    },
  });
}

/** The refusal behind a failed fetch, when the guard refused its connection. */
export function refusalOf(error: unknown): InternalAddressRefused | null {
  for (let cause = error; cause instanceof Error; cause = cause.cause)
    if (cause instanceof InternalAddressRefused) return cause;
  return null;
}
