import { describe, expect, it } from 'vitest';
import { redactLine, redactUrl } from './logger.ts';

describe('log redaction', () => {
  it('hides the values of credential-like query parameters and keeps the rest', () => {
    expect(redactUrl('/socket?conversation_id=c1&latest_event_id=-1&auth_token=abc&session_api_key=k')).toBe(
      '/socket?conversation_id=c1&latest_event_id=-1&auth_token=[redacted]&session_api_key=[redacted]',
    );
    expect(redactUrl('/api/github/callback?code=xyz&state=s')).toBe('/api/github/callback?code=[redacted]&state=s');
    expect(redactUrl('/api/conversations?limit=5')).toBe('/api/conversations?limit=5');
    expect(redactUrl('/a?%ZZ=1&api%5Fkey=2')).toBe('/a?%ZZ=1&api%5Fkey=[redacted]');
  });

  it('hides query credentials and authorization values anywhere in a written line', () => {
    expect(redactLine('{"msg":"GET http://node:3000/socket?auth_token=abc.def&x=1"}')).toBe(
      '{"msg":"GET http://node:3000/socket?auth_token=[redacted]&x=1"}',
    );
    expect(redactLine('{"err":"Authorization: Bearer sk-123_abc failed"}')).toBe(
      '{"err":"Authorization: Bearer [redacted] failed"}',
    );
    expect(redactLine('{"statusCode":200,"responseTime":1.2}')).toBe('{"statusCode":200,"responseTime":1.2}');
  });
});
