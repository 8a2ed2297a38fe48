import type { ModelMessage } from 'ai';
import { unitMessages, type ContextUnit } from './units.ts';

/** A rough token count (four characters a token): condensation needs a safe margin, not an exact figure. */
/** What providers count for one image: they scale images to about 1.15 megapixels, ~1,600 tokens (Anthropic's figure). */
const IMAGE_TOKENS = 1_600;

export function estimateTokens(value: unknown): number {
  if (typeof value === 'string') return Math.ceil(value.length / 4);
  // An image's data URL is counted as an image, not as its base64 text.
  let images = 0;
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item !== 'string' || !item.startsWith('data:image/')) return item;
    images++;
    return '';
  });
  return Math.ceil(text.length / 4) + images * IMAGE_TOKENS;
}

// A unit's estimate, kept while the unit is: the units before the open turn stay the same objects from step to step.
const estimates = new WeakMap<ContextUnit, number>();
function unitTokens(unit: ContextUnit): number {
  let tokens = estimates.get(unit);
  if (tokens === undefined) {
    tokens = estimateTokens(unitMessages(unit));
    estimates.set(unit, tokens);
  }
  return tokens;
}
/** The units' estimate, each on its own: never below the estimate of their messages sent together. */
const unitsTokens = (units: readonly ContextUnit[]) => units.reduce((sum, unit) => sum + unitTokens(unit), 0);
const DIGEST_LINE = 200;

function clip(text: string, length = DIGEST_LINE): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

function contentText(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join(' ');
}

/** One line per thing that happened in the dropped units. */
function digestLines(units: readonly ContextUnit[]): string[] {
  return units.flatMap((unit) => {
    if (unit.kind === 'user') return [`- The user side said: "${clip(contentText(unit.message))}"`];
    const [assistant, tool] = unit.messages;
    const results = new Map<string, string>();
    if (tool && Array.isArray(tool.content)) {
      for (const part of tool.content)
        if (part.type === 'tool-result' && part.output.type === 'text') results.set(part.toolCallId, part.output.value);
    }
    const lines: string[] = [];
    if (assistant && Array.isArray(assistant.content)) {
      for (const part of assistant.content) {
        if (part.type === 'text' && part.text.trim()) lines.push(`- You said: "${clip(part.text)}"`);
        if (part.type === 'tool-call')
          lines.push(
            `- You called ${part.toolName}(${clip(JSON.stringify(part.input), 150)}) → ${clip(results.get(part.toolCallId) ?? '', 120)}`,
          );
      }
    } else if (assistant) {
      lines.push(`- You said: "${clip(contentText(assistant))}"`);
    }
    return lines;
  });
}

/** The dropped part of the conversation as one user-side message, newest lines kept when it is long. */
export function digest(units: readonly ContextUnit[], maxTokens: number): ModelMessage {
  const lines = digestLines(units);
  const kept: string[] = [];
  let size = 0;
  for (const line of [...lines].reverse()) {
    size += estimateTokens(line) + 1;
    if (size > maxTokens) break;
    kept.unshift(line);
  }
  const omitted = lines.length - kept.length;
  const header = `[${units.length} earlier part(s) of this conversation were condensed to fit the context window. What happened in them:${omitted > 0 ? ` (${omitted} older line(s) omitted)` : ''}]`;
  return { role: 'user', content: [header, ...kept].join('\n') };
}

export interface CondenserLimits {
  /** Condense when the prompt would exceed this many tokens. */
  limitTokens: number;
  /** After condensing, the prompt is at most this big, so that the next condensation is many steps away (and the cached prefix stays). */
  targetTokens: number;
}

/**
 * Keeps the conversation inside the context window. The pinned units (the first user message
 * and the workspace recall) always stay; the oldest other units are replaced by a digest.
 * The cut only moves when the prompt outgrows the limit again, so between condensations the
 * prompt grows by appending and the provider's prompt cache keeps working.
 */
export class Condenser {
  /** The first event of the oldest unit still sent whole; older units are in the digest. */
  private keepFrom: number | null = null;

  constructor(private readonly limits: () => CondenserLimits) {}

  // The digest of the dropped units, made again only when they change (a long conversation has thousands).
  private lastDigest: { units: readonly ContextUnit[]; maxTokens: number; message: ModelMessage } | null = null;

  private digestOf(units: readonly ContextUnit[], maxTokens: number): ModelMessage {
    const last = this.lastDigest;
    if (
      last?.maxTokens === maxTokens &&
      last.units.length === units.length &&
      last.units.every((unit, i) => unit === units[i])
    )
      return last.message;
    const message = digest(units, maxTokens);
    this.lastDigest = { units, maxTokens, message };
    return message;
  }

  /** The messages to send; `fixedTokens` is what the system prompt and tool definitions take. */
  messages(units: readonly ContextUnit[], fixedTokens: number): { messages: ModelMessage[]; condensed: boolean } {
    const { limitTokens, targetTokens } = this.limits();
    const pinned = units.filter((unit) => unit.pinned);
    const rest = units.filter((unit) => !unit.pinned);
    const digestBudget = Math.max(200, Math.floor(targetTokens / 10));
    const assemble = () => {
      const dropped = rest.filter((unit) => this.keepFrom !== null && unit.firstEventId < this.keepFrom);
      const kept = rest.filter((unit) => this.keepFrom === null || unit.firstEventId >= this.keepFrom);
      const summary = dropped.length > 0 ? [this.digestOf(dropped, digestBudget)] : [];
      return {
        messages: [...pinned.flatMap(unitMessages), ...summary, ...kept.flatMap(unitMessages)],
        tokens: unitsTokens(pinned) + estimateTokens(summary) + unitsTokens(kept),
        kept,
        condensed: dropped.length > 0,
      };
    };
    let result = assemble();
    if (fixedTokens + result.tokens <= limitTokens) return { messages: result.messages, condensed: result.condensed };

    // Keep the newest units that fit in the target beside the pinned ones and the digest; the newest always stays.
    let room = targetTokens - fixedTokens - unitsTokens(pinned) - digestBudget;
    let from = result.kept.at(-1)?.firstEventId ?? null;
    for (const unit of [...result.kept].reverse()) {
      room -= unitTokens(unit);
      if (room < 0) break;
      from = unit.firstEventId;
    }
    this.keepFrom = from;
    result = assemble();
    return { messages: result.messages, condensed: result.condensed };
  }

  /** The provider said the prompt does not fit: cut harder than the estimate suggested. */
  forceCondense(units: readonly ContextUnit[], fixedTokens: number): ModelMessage[] {
    const kept = units.filter((unit) => !unit.pinned && (this.keepFrom === null || unit.firstEventId >= this.keepFrom));
    const middle = kept[Math.floor(kept.length / 2)];
    if (middle) this.keepFrom = middle.firstEventId;
    return this.messages(units, fixedTokens).messages;
  }
}
