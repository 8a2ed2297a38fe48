import { jsonSchema, type JSONSchema7, type ToolSet } from 'ai';
import { browser } from './browser.ts';
import { executeBash } from './execute-bash.ts';
import { executeIpythonCell } from './execute-ipython-cell.ts';
import { finish } from './finish.ts';
import { strReplaceEditor } from './str-replace-editor.ts';
import { think } from './think.ts';
import type { AgentTool, ToolSpec } from './tool.ts';

export type { AgentTool, ToolOutcome, ToolSpec } from './tool.ts';
export { ToolInputError } from './tool.ts';

// Tools differ in their input types; the registry only passes each tool's parsed input back to that same tool.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyTool = AgentTool<any>;

export const BUILT_IN_TOOLS: readonly AnyTool[] = [executeBash, strReplaceEditor, executeIpythonCell, browser, think, finish];

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

  /** The tool definitions for the AI SDK; without `execute`, so the agent runs the calls itself. */
  forModel(): ToolSet {
    return Object.fromEntries(this.tools.map((tool) => [tool.name, { description: tool.description, inputSchema: jsonSchema(tool.parameters as JSONSchema7) }]));
  }

  /** The tools as the `system` event lists them. */
  specs(): ToolSpec[] {
    return this.tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }));
  }
}
