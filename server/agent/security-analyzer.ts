/**
 * How risky an action is, and whether confirmation mode must ask the user before running it.
 *
 * The risk combines two opinions and keeps the higher: the model's own `security_risk`
 * argument (LOW / MEDIUM / HIGH) and static rules that recognise commands known to be
 * destructive or to run code from the network. Static rules only ever raise the risk, so a
 * model that calls `rm -rf /` "LOW" still gets asked about. Without either opinion the risk is
 * UNKNOWN, which confirmation mode treats like MEDIUM.
 */

export const Risk = { UNKNOWN: -1, LOW: 0, MEDIUM: 1, HIGH: 2 } as const;
export type RiskLevel = (typeof Risk)[keyof typeof Risk];

interface Rule {
  risk: RiskLevel;
  pattern: RegExp;
  why: string;
}

// A command starts at the beginning of the text, after a shell separator, after IPython's `!`
// or inside a quoted string (`os.system("...")`): a false alarm only costs a confirmation.
const START = String.raw`(?:^|[;&|(\n!"'\`]\s*|\bsudo\s+|\bexec\s+)`;
const RECURSIVE_FORCE_RM = String.raw`${START}rm\s+(?:-[a-zA-Z]*[rR][a-zA-Z]*f[a-zA-Z]*|-[a-zA-Z]*f[a-zA-Z]*[rR][a-zA-Z]*|-[rR]\s+-f|-f\s+-[rR]|--recursive\s+--force|--force\s+--recursive)\b`;

const COMMAND_RULES: readonly Rule[] = [
  {
    risk: Risk.HIGH,
    pattern: new RegExp(
      `${RECURSIVE_FORCE_RM}[^;&|\\n]*\\s(?:/|/\\*|~|~/|\\$HOME|\\$\\{HOME\\}|/(?:bin|boot|dev|etc|home|lib|opt|root|sbin|srv|usr|var)/?)(?=[\\s;&|"'\\x60)]|$)`,
    ),
    why: 'deletes the system or home directory',
  },
  {
    risk: Risk.HIGH,
    pattern: /\b(?:curl|wget)\b[^|\n]*\|\s*(?:sudo\s+)?(?:ba|z|k|da)?sh\b/,
    why: 'runs a script downloaded from the network',
  },
  {
    risk: Risk.HIGH,
    pattern: /\b(?:ba|z)?sh\s+<\(\s*(?:curl|wget)\b/,
    why: 'runs a script downloaded from the network',
  },
  { risk: Risk.HIGH, pattern: new RegExp(`${START}sudo\\b`), why: 'runs a command as root' },
  { risk: Risk.HIGH, pattern: new RegExp(`${START}su(?:\\s|$)`), why: 'switches user' },
  { risk: Risk.HIGH, pattern: /\bmkfs(?:\.\w+)?\b/, why: 'formats a file system' },
  { risk: Risk.HIGH, pattern: /\bdd\b[^\n;|&]*\bof=\/dev\//, why: 'writes to a device' },
  { risk: Risk.HIGH, pattern: />\s*\/dev\/(?:sd|nvme|hd|vd|xvd|disk)\w*/, why: 'writes to a disk device' },
  {
    risk: Risk.HIGH,
    pattern: /\bgit\s+push\b[^\n;|&]*(?:\s--force(?:-with-lease)?\b|\s-f\b|\s\+\S+)/,
    why: 'force-pushes and may destroy remote history',
  },
  { risk: Risk.HIGH, pattern: /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/, why: 'is a fork bomb' },
  { risk: Risk.HIGH, pattern: /\bchmod\s+(?:-R\s+)?[0-7]*777\s+\/(?:\s|$)/, why: 'opens up the whole file system' },
  {
    risk: Risk.HIGH,
    pattern: new RegExp(`${START}(?:shutdown|reboot|halt|poweroff)\\b`),
    why: 'shuts the machine down',
  },
  { risk: Risk.HIGH, pattern: /\bkill\s+-9\s+-1\b/, why: 'kills every process' },
  { risk: Risk.MEDIUM, pattern: new RegExp(RECURSIVE_FORCE_RM), why: 'deletes files recursively' },
  { risk: Risk.MEDIUM, pattern: /\bgit\s+(?:reset\s+--hard|clean\s+-[a-zA-Z]*f)/, why: 'discards uncommitted work' },
  { risk: Risk.MEDIUM, pattern: /\bchmod\s+(?:-R\s+)?[0-7]*777\b/, why: 'makes files writable by everyone' },
  {
    risk: Risk.MEDIUM,
    pattern: /\b(?:curl|wget)\b[^\n]*\s-(?:d|F|T|-data|-upload-file)\b/,
    why: 'sends data to the network',
  },
];

/** Files outside any workspace that an edit must never touch unasked. */
const SYSTEM_PATH = /^\/(?:bin|boot|dev|etc|lib|lib64|proc|root|sbin|sys|usr)(?:\/|$)/;

export interface RiskFinding {
  risk: RiskLevel;
  why: string;
}

/** The highest static rule a command (shell, or Python that may shell out) matches, if any. */
export function commandRisk(command: string): RiskFinding | null {
  const found = COMMAND_RULES.filter((rule) => rule.pattern.test(command)).sort((a, b) => b.risk - a.risk)[0];
  return found ? { risk: found.risk, why: found.why } : null;
}

/** Static risk of a built-in tool call. */
export function staticRisk(tool: string, input: Readonly<Record<string, unknown>>): RiskFinding | null {
  const text = (key: string) => (typeof input[key] === 'string' ? input[key] : '');
  switch (tool) {
    case 'execute_bash':
      return commandRisk(text('command'));
    case 'execute_ipython_cell':
      return commandRisk(text('code'));
    case 'str_replace_editor':
      return text('command') !== 'view' && SYSTEM_PATH.test(text('path'))
        ? { risk: Risk.HIGH, why: 'changes a system file' }
        : null;
    default:
      return null;
  }
}

/** The model's `security_risk` argument as a level; anything else is UNKNOWN. */
export function modelRisk(value: unknown): RiskLevel {
  if (typeof value !== 'string') return Risk.UNKNOWN;
  const level = (Risk as Record<string, RiskLevel>)[value.toUpperCase()];
  return level ?? Risk.UNKNOWN;
}

export function assessRisk(tool: string, input: Readonly<Record<string, unknown>>): RiskLevel {
  const fromModel = modelRisk(input.security_risk);
  const fromRules = staticRisk(tool, input)?.risk ?? Risk.UNKNOWN;
  return Math.max(fromModel, fromRules) as RiskLevel;
}

/** Tools that change nothing: confirmation mode never asks about them. */
const HARMLESS_TOOLS = new Set(['think', 'finish']);

/**
 * Confirmation mode with no analyzer selected asks about every action (the user chose to see
 * everything); with an analyzer it asks when the risk is MEDIUM or more, or UNKNOWN.
 */
export function requiresConfirmation(
  policy: { confirmationMode: boolean; securityAnalyzer: string | null },
  tool: string,
  risk: RiskLevel,
): boolean {
  if (!policy.confirmationMode || HARMLESS_TOOLS.has(tool)) return false;
  if (!policy.securityAnalyzer) return true;
  return risk === Risk.UNKNOWN || risk >= Risk.MEDIUM;
}
