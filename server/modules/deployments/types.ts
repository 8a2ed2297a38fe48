/** A machine size a provider offers, with its price. */
export interface DeploySize {
  slug: string;
  hourlyCostMicros: bigint;
  vcpus: number;
  memoryMb: number;
  regions: string[];
}

/** What to deploy: the app's files, how it starts and the port it answers on. */
export interface DeployRequest {
  conversationId: string;
  /** The machine's name: letters, digits, dots and dashes (a host name). */
  name: string;
  size: string;
  region: string | null;
  environment: 'staging' | 'production';
  app: {
    /** A gzipped tar of the app's directory. */
    archive: Uint8Array;
    /** The shell command that starts it, run in the app's directory. */
    start: string;
    port: number;
  };
}

export interface Deployed {
  externalId: string;
  ip: string | null;
  url: string;
  region: string;
  sizeSlug: string;
  hourlyCostMicros: bigint;
}

/**
 * Where the DevOps agent deploys: a cloud (DigitalOcean) or this machine. Every method throws a
 * DomainError whose detail names the provider when it refuses or cannot be reached.
 */
export interface DeployProvider {
  readonly name: 'local' | 'digitalocean';
  sizes(): Promise<DeploySize[]>;
  /** Creates the machine, waits until the app's machine is up, and answers where it is. Leaves nothing behind on failure. */
  create(request: DeployRequest): Promise<Deployed>;
  /** Destroys it; one that is already gone counts as destroyed. */
  destroy(externalId: string): Promise<void>;
  /** Brings a live deployment back after this server restarted (the local provider's apps end with it). */
  restore?(externalId: string): Promise<void>;
}
