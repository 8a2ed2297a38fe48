/** Things open at once per key (an address, a user), within a limit: connections, sockets. */
export class OpenCounts {
  private readonly counts = new Map<string, number>();

  /** Counts one more for `key`, unless it has `limit` already. */
  take(key: string, limit: number): boolean {
    const count = this.counts.get(key) ?? 0;
    if (count >= limit) return false;
    this.counts.set(key, count + 1);
    return true;
  }

  give(key: string): void {
    const count = (this.counts.get(key) ?? 1) - 1;
    if (count > 0) this.counts.set(key, count);
    else this.counts.delete(key);
  }
}
