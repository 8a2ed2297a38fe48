export { FakeLlm, type ChatRequest } from './server.ts';
export type { RecordedRequest } from './scripted-server.ts';
export { reply, withTools, withoutTools, type FakeReply, type FakeToolCall, type ModelRequest } from './script.ts';
