export { FakeAnthropic, type AnthropicMessage, type ContentBlock, type MessagesRequest } from './server.ts';
