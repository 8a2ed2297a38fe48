import { finishReply, titleReply } from '../tests/agent/scenario.ts';
import { FakeLlm, reply, withTools } from '../tests/support/fake-llm/index.ts';

/**
 * The fake model in a process of its own, so that its work is not counted as the agent's:
 * `tsx bench/fake-model-process.ts think|shell STEPS` prints its base URL, then answers a
 * title, STEPS distinct tool calls and a finish.
 */
const [kind, steps] = [process.argv[2], Number(process.argv[3])];
let n = 0;
const step = () =>
  kind === 'shell'
    ? reply.toolCall('execute_bash', { command: `true ${++n}` }, { when: withTools })
    : reply.toolCall('think', { thought: `step ${++n}` }, { when: withTools });
const llm = new FakeLlm();
const baseUrl = await llm.start();
llm.enqueue(titleReply, ...Array.from({ length: steps }, step), finishReply);
process.stdout.write(`${baseUrl}\n`);
process.on('disconnect', () => void llm.stop().then(() => process.exit(0)));
