import type { CgroupEvents, ConversationCgroup } from './cgroups.ts';
import { cgroupHits, diskHit, rlimitOptions, type LimitHit, type WorkspaceLimits } from './limits.ts';

const MB = 2 ** 20;
/** How often the disk is measured while a command runs, and while none does. */
const BUSY_INTERVAL_MS = 1000;
const IDLE_INTERVAL_MS = 30_000;
/** A measurement may take at most this share of the time between two (du over a large workspace takes a while; a small one costs the sandbox's start, ~45 ms). */
const MEASURE_SHARE = 1 / 20;

export interface LimitWatchParts {
  limits: WorkspaceLimits;
  cgroup: ConversationCgroup | null;
  /** Whether the conversation has a host user of its own (then the process limit is an rlimit too). */
  ownUser: boolean;
  /** Bytes the workspace, home and temporary directories hold (measured inside the sandbox). */
  measureDisk: () => Promise<number>;
  /** Sets the file size limit of the conversation's running processes. */
  limitFileSize: (bytes: number) => Promise<void>;
  /** Kills the processes still writing but the sandboxes' first ones (disk-limit.ts); answers how many. */
  stopWriters: () => Promise<number>;
}

/**
 * Watches one conversation's limits. Memory and processes are the control group's to enforce;
 * this reads its counters, so the agent's next observation and the user's status bar say what
 * happened. Disk is enforced here: the directories are measured after every command and every
 * second while one runs (every 30 s otherwise), and while they hold more than the limit no file
 * of the conversation may grow (its processes' RLIMIT_FSIZE is 0; writes fail with "File too
 * large"), until files are deleted. Where a process can raise its own limit again (without
 * CAP_SYS_RESOURCE only the soft one moves) and the directories reach twice the limit, every
 * process but the shell, the kernel and the snapshot process is stopped.
 */
export class LimitWatch {
  private readonly listeners = new Set<(hit: LimitHit) => void>();
  /** Hits not yet told to the agent. */
  private pending: LimitHit[] = [];
  private seen: CgroupEvents = { oomKills: 0, processLimitHits: 0 };
  private overDisk = false;
  private busy = 0;
  private lastMeasured = 0;
  private lastCostMs = 0;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly parts: LimitWatchParts) {}

  /** rlimits for a process started now. */
  rlimits(): string[] {
    const fileSizeBytes = this.overDisk ? 0 : this.parts.limits.diskMb * MB;
    return rlimitOptions(this.parts.limits, { fileSizeBytes, ownUser: this.parts.ownUser });
  }

  /** Every hit as it is found (for the user's status messages). */
  onHit(listener: (hit: LimitHit) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(): Promise<void> {
    this.seen = (await this.parts.cgroup?.events()) ?? this.seen;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /**
   * Runs a command, measuring more often meanwhile; answers its result with the hits since
   * the last command (what happened in the background included) for the agent to read. A
   * command that took a second or more, or ran while the workspace was over its disk limit (it
   * may have deleted files), has the disk measured once more after it; another short one is not
   * held up for it (the once-a-second measurement sees what it wrote).
   */
  async around<T>(run: () => Promise<T>): Promise<{ value: T; hits: LimitHit[] }> {
    this.busy += 1;
    this.schedule();
    const started = Date.now();
    try {
      const value = await run();
      await this.check(this.overDisk || Date.now() - started >= BUSY_INTERVAL_MS);
      const hits = this.pending;
      this.pending = [];
      return { value, hits };
    } finally {
      this.busy -= 1;
    }
  }

  /** Reads the counters and, when due (or `measure`), the disk. */
  check(measure = false): Promise<void> {
    this.checking = this.checking.then(() => this.checkNow(measure)).catch(() => undefined);
    return this.checking;
  }

  private async checkNow(measure: boolean): Promise<void> {
    if (this.stopped) return;
    const hits: LimitHit[] = [];
    if (this.parts.cgroup) {
      const now = await this.parts.cgroup.events();
      hits.push(...cgroupHits(this.seen, now, this.parts.limits));
      this.seen = now;
    }
    const due = Date.now() - this.lastMeasured >= Math.max(this.interval(), this.lastCostMs / MEASURE_SHARE);
    if (measure || due) {
      const started = Date.now();
      const used = await this.parts.measureDisk();
      this.lastMeasured = Date.now();
      this.lastCostMs = this.lastMeasured - started;
      const limit = this.parts.limits.diskMb * MB;
      const over = used > limit;
      if (over !== this.overDisk) {
        this.overDisk = over;
        await this.parts.limitFileSize(over ? 0 : limit);
        if (over) hits.push(diskHit(this.parts.limits, used));
      }
      if (used > 2 * limit && (await this.parts.stopWriters()) > 0) hits.push(diskHit(this.parts.limits, used, true));
    }
    for (const hit of hits) {
      this.pending.push(hit);
      for (const listener of this.listeners) listener(hit);
    }
  }

  private interval(): number {
    return this.busy > 0 ? BUSY_INTERVAL_MS : IDLE_INTERVAL_MS;
  }

  private schedule(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.check().finally(() => this.schedule());
    }, this.interval()).unref();
  }
}
