import { z } from 'zod';
import { OUTPUT_LIMIT, securityRiskArgument, truncateMiddle, zodTool, type ToolOutcome } from './tool.ts';

const schema = z.object({
  code: z
    .string()
    .min(1)
    .describe(
      'The Python code to run in the IPython kernel; variables persist between cells. `%pip install pkg` installs packages.',
    ),
  security_risk: securityRiskArgument,
});

export const executeIpythonCell = zodTool({
  name: 'execute_ipython_cell',
  description:
    'Run Python code in a persistent IPython kernel in the workspace. Use it for data work and quick computations; use execute_bash for shell commands.',
  actionKind: 'run_ipython',
  schema,
  describe: (input) => ({
    action: 'run_ipython',
    message: `Running Python code interactively: ${input.code}`,
    args: { code: input.code, include_extra: true, kernel_init_code: '' },
  }),
  async run(input, { runtime }): Promise<ToolOutcome> {
    const unavailable = await runtime.pythonUnavailable();
    if (unavailable !== null) {
      return {
        observation: 'error',
        content: `Python (IPython) is not available in this workspace: ${unavailable}. Run Python scripts with execute_bash (python3 script.py) instead.`,
        extras: {},
        error: true,
      };
    }
    const result = await runtime.runPython(input.code);
    const images = result.images.length > 0 ? `\n[${result.images.length} image(s) displayed]` : '';
    return {
      observation: 'run_ipython',
      content: truncateMiddle(result.output, OUTPUT_LIMIT) + images,
      message: 'Code executed in IPython cell.',
      extras: { code: input.code, image_urls: result.images },
    };
  },
});
