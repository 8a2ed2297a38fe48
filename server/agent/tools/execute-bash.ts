import { z } from 'zod';
import type { CommandResult } from '../../runtime/types.ts';
import {
  numberArgument,
  flagArgument,
  OUTPUT_LIMIT,
  securityRiskArgument,
  truncateMiddle,
  zodTool,
  type ToolOutcome,
} from './tool.ts';

const schema = z.object({
  command: z
    .string()
    .describe(
      'The bash command to run. Chain commands with && or ;. An empty string shows more output of the command still running. ' +
        'With is_input=true the text is sent to the running process instead: an answer to a prompt, or C-c / C-d / C-z to interrupt it.',
    ),
  is_input: flagArgument()
    .optional()
    .describe('True when `command` is input for the command still running rather than a new command. Default false.'),
  timeout: numberArgument(z.number().positive())
    .optional()
    .describe(
      'Seconds to wait for the command before returning what it printed so far (it keeps running; default 120).',
    ),
  security_risk: securityRiskArgument,
});

const STILL_RUNNING =
  '[The command is still running. Send an empty command to see more of its output, send input with is_input=true, or send C-c with is_input=true to interrupt it.]';
export const executeBash = zodTool({
  name: 'execute_bash',
  description:
    'Run a bash command in the workspace shell (a persistent session: the working directory and environment carry over). ' +
    'Long-running commands, such as servers, keep running when the timeout passes: poll them with an empty command, or interrupt them with C-c. ' +
    'Run servers in the background (`cmd > server.log 2>&1 &`) so the shell stays free.',
  actionKind: 'run',
  schema,
  describe: (input) => ({
    action: 'run',
    message: `Running command: ${input.command}`,
    args: {
      command: input.command,
      is_input: input.is_input ?? false,
      timeout: input.timeout ?? null,
      blocking: false,
      hidden: false,
    },
  }),
  async run(input, { runtime, signal }): Promise<ToolOutcome> {
    // The runtime turns C-c, C-d and C-z sent as input into the control characters, and polls on an empty command.
    let result;
    try {
      result = await runtime.runCommand({
        command: input.command,
        isInput: input.is_input ?? false,
        timeoutSeconds: input.timeout,
        signal,
      });
    } catch (error) {
      if (!signal.aborted) throw error;
      // Stopped or paused: interrupt the command and report what it printed before it ended.
      await runtime.interrupt();
      const ended = await runtime.runCommand({ command: '', timeoutSeconds: 5 });
      return outcome(input.command, {
        ...ended,
        output: `${ended.output}\n[The command was interrupted because the agent was paused or stopped.]`.trim(),
      });
    }
    return outcome(input.command, result);
  },
});

function outcome(command: string, result: CommandResult): ToolOutcome {
  const suffix = result.running ? STILL_RUNNING : '';
  const exitCode = result.running ? -1 : result.exitCode;
  const content = [truncateMiddle(result.output, OUTPUT_LIMIT), suffix].filter(Boolean).join('\n');
  return {
    observation: 'run',
    content,
    message: result.running
      ? `Command \`${command}\` is still running.`
      : `Command \`${command}\` executed with exit code ${exitCode}.`,
    extras: {
      command,
      hidden: false,
      metadata: { exit_code: exitCode, pid: -1, working_dir: result.cwd, prefix: '', suffix },
    },
  };
}
