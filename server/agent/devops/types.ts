import type { ModelMessage } from 'ai';
import type { RuntimeSession } from '../../runtime/types.ts';
import type { LlmSettings } from '../types.ts';

/** A machine size the deploy target offers, with its price. */
export interface DevopsSize {
  slug: string;
  hourlyCostMicros: bigint;
  vcpus: number;
  memoryMb: number;
  regions: string[];
}

/** What the agent proposed to the user and deploys once they agreed. */
export interface DeployPlan {
  name: string;
  environment: 'staging' | 'production';
  /** The app's directory inside the workspace ('.' for the workspace itself). */
  directory: string;
  start: string;
  port: number;
  size: string;
  region: string | null;
}

export interface DevopsDeployment {
  name: string;
  environment: 'staging' | 'production';
  url: string | null;
  size: string;
  region: string;
  hourlyCostMicros: bigint;
  totalCostUsd: number;
}

/** The conversation as its DevOps agent sees it: its workspace and where it deploys. */
export interface DevopsHost {
  readonly runtime: RuntimeSession;
  readonly llm: LlmSettings | null;
  /** Where deployments go: a cloud, or this machine. */
  readonly target: 'local' | 'digitalocean';
  sizes(): Promise<DevopsSize[]>;
  /** Provisions the plan with the app directory's archive; answers the live deployment. */
  deploy(plan: DeployPlan, archive: Uint8Array): Promise<DevopsDeployment>;
  deployments(): Promise<DevopsDeployment[]>;
  destroy(name: string): Promise<void>;
  /** Fetches the deployed app once (the health check); answers the HTTP status. */
  probe(url: string, signal: AbortSignal): Promise<number>;
  /** Shows a line of progress in the DevOps tab while a long step runs. */
  progress(text: string): Promise<void>;
  /** saas: charges one model call to the user's credits (micro-dollars, once per key). Absent in oss mode. */
  charge?(costMicros: bigint, idempotencyKey: string): Promise<unknown>;
}

/** One turn: what the user said, answered after as many tool steps as the agent needs. */
export interface DevopsTurn {
  /** Unique per turn (the user's message id): names the turn's charges. */
  id: string;
  /** The model messages of the earlier turns, oldest first. */
  context: readonly ModelMessage[];
  message: string;
  signal: AbortSignal;
}

export interface DevopsReply {
  text: string;
  /** The workflow is finished: the tab disables its input. */
  isComplete: boolean;
  /** This turn's model messages (the user's message included), to keep for the next turns. */
  messages: ModelMessage[];
}
