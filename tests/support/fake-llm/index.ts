export { FakeLlm, type RecordedRequest } from './server.ts';
export { reply, withTools, withoutTools, type ChatRequest, type FakeReply, type FakeToolCall } from './script.ts';
