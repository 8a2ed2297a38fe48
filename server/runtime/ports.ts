import net from 'node:net';

/** Whether nothing listens on the port: apps bind all interfaces or loopback, so try the unspecified address (which covers both). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Any free port the system picks on a loopback address (for the Jupyter kernel's channels, the served apps' forwards). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ port: 0, host }, () => {
      const address = server.address();
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('No port assigned')),
      );
    });
  });
}

/**
 * Hands out pairs of ports from a range for the apps a conversation serves. A port stays
 * reserved for its conversation until released, so two sessions never share one, and a
 * conversation that restarts gets its previous pair back when still free (its app URLs
 * stay the same).
 */
export class PortPool {
  private readonly reserved = new Map<number, string>();
  private readonly previous = new Map<string, [number, number]>();

  constructor(private readonly range: readonly [number, number]) {
    if (!(range[0] >= 1 && range[1] <= 65535 && range[1] - range[0] >= 1))
      throw new Error(`Invalid port range: ${range.join('-')}`);
  }

  async reserve(owner: string): Promise<[number, number]> {
    const chosen: number[] = [];
    const take = async (port: number): Promise<boolean> => {
      if (this.reserved.has(port)) return false;
      // Reserved before the check so a concurrent reserve() cannot pick the same port meanwhile.
      this.reserved.set(port, owner);
      if (await portIsFree(port)) {
        chosen.push(port);
        return true;
      }
      this.reserved.delete(port);
      return false;
    };
    for (const port of this.previous.get(owner) ?? []) await take(port);
    const [low, high] = this.range;
    const size = high - low + 1;
    // Start at a random place so runtimes in different processes rarely try the same ports first.
    const start = Math.floor(Math.random() * size);
    for (let step = 0; step < size && chosen.length < 2; step += 1) await take(low + ((start + step) % size));
    const [first, second] = chosen;
    if (first === undefined || second === undefined) {
      for (const port of chosen) this.reserved.delete(port);
      throw new Error(`No free ports left in ${low}-${high}`);
    }
    const pair: [number, number] = [first, second];
    this.previous.set(owner, pair);
    return pair;
  }

  release(owner: string): void {
    for (const [port, holder] of this.reserved) if (holder === owner) this.reserved.delete(port);
  }

  /** Releases the owner's ports and the claim to get them back (the conversation is gone). */
  forget(owner: string): void {
    this.release(owner);
    this.previous.delete(owner);
  }
}
