import type { JSONSchema7 } from 'ai';
import type { ProviderTool } from '../llm/provider-prompt.ts';
import { browser } from './browser.ts';
import { executeBash } from './execute-bash.ts';
import { executeIpythonCell } from './execute-ipython-cell.ts';
import { finish } from './finish.ts';
import { strReplaceEditor } from './str-replace-editor.ts';
import { portableSchema } from './portable-schema.ts';
import { think } from './think.ts';
import type { AgentTool, ToolSpec } from './tool.ts';

export type { AgentTool, ToolOutcome, ToolSpec } from './tool.ts';
export { ToolInputError } from './tool.ts';

// Tools differ in their input types; the registry only passes each tool's parsed input back to that same tool.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyTool = AgentTool<any>;

export const BUILT_IN_TOOLS: readonly AnyTool[] = [
  executeBash,
  strReplaceEditor,
  executeIpythonCell,
  browser,
  think,
  finish,
];

/** Names an MCP server's tool cannot take as they are. */
export const BUILT_IN_TOOL_NAMES: ReadonlySet<string> = new Set(BUILT_IN_TOOLS.map((tool) => tool.name));

/** The tools of one agent session: the built-in ones and those of the user's MCP servers. */
export class ToolRegistry {
  private readonly byName: ReadonlyMap<string, AnyTool>;

  constructor(readonly tools: readonly AnyTool[]) {
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
  }

  get(name: string): AnyTool | undefined {
    return this.byName.get(name);
  }

  get names(): string[] {
    return [...this.byName.keys()];
  }

  /** The tool definitions sent to the model (the agent runs the calls itself), in the schema subset every provider takes. */
  forModel(): ProviderTool[] {
    return this.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      inputSchema: portableSchema(tool.parameters) as JSONSchema7,
    }));
  }

  /** The tools as the `system` event lists them. */
  specs(): ToolSpec[] {
    return this.tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }));
  }
}
