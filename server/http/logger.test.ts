import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { loggerOptions, redactFields, redactLine, redactUrl } from './logger.ts';

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
    // A card number in any message (an error quoting what it was given), written as people write it.
    for (const written of ['4242424242424242', '4242 4242 4242 4242', '3782-822463-10005', '5555555555554444'])
      expect(redactLine(`{"err":"refused ${written} at the provider"}`)).toBe(
        '{"err":"refused [redacted card number] at the provider"}',
      );
    // Numbers that are not cards stay: a timestamp, a failing checksum, an amount, a version.
    for (const kept of [
      '{"time":1733520000000}',
      '{"n":"4242424242424241"}',
      '{"micros":250000000000}',
      '{"v":"5.12345678901234.5"}',
    ])
      expect(redactLine(kept)).toBe(kept);
  });

  it('hides credential fields at any depth and copies only the objects on the way to one', () => {
    const clean = { conversationId: 'c1', settings: { model: 'm', tags: ['a', { name: 'b' }] } };
    expect(redactFields(clean)).toBe(clean);
    const logged = {
      conversationId: 'c1',
      settings: { llm_api_key: 'sk-1', model: 'm' },
      headers: { authorization: 'Bearer x', accept: '*/*' },
      attempts: [{ token: 't' }, { ok: true }],
    };
    const redacted = redactFields(logged);
    expect(redacted).toEqual({
      conversationId: 'c1',
      settings: { llm_api_key: '[redacted]', model: 'm' },
      headers: { authorization: '[redacted]', accept: '*/*' },
      attempts: [{ token: '[redacted]' }, { ok: true }],
    });
    expect(logged.settings.llm_api_key).toBe('sk-1');
    expect(redacted.attempts[1]).toBe(logged.attempts[1]);
  });

  it('hides every card field, as the forms send them and as the payment code hands them on', () => {
    const body = {
      card_number: '4242 4242 4242 4242',
      expiry_date: '12/35',
      security_code: '123',
      cardholder_name: 'Ada',
      card_holder_name: 'Ada',
      same_billing_address: true,
    };
    const card = { number: '4242424242424242', expMonth: 12, expYear: 2035, cvc: '123', holderName: 'Ada' };
    const redacted = redactFields({ body, card });
    expect(JSON.stringify(redacted)).not.toMatch(/4242|12\/35|"123"|Ada|2035/);
    expect(redacted.body.same_billing_address).toBe(true);
  });

  it('leaves objects other than plain ones and arrays to their serializers', () => {
    const error = Object.assign(new Error('failed'), { token: 't' });
    expect(redactFields({ err: error }).err).toBe(error);
  });

  it('writes lines without the credentials a logged object or error carries', () => {
    const lines: string[] = [];
    const log = pino(loggerOptions('info') as pino.LoggerOptions, { write: (line: string) => lines.push(line) });
    const error = Object.assign(new Error('refresh failed'), { token: 'tok-secret' });
    log.error({ err: error, settings: { password: 'pw-secret' }, conversationId: 'c1' }, 'refreshing failed');
    const [line] = lines;
    expect(line).toContain('refresh failed');
    expect(line).toContain('"conversationId":"c1"');
    expect(line).not.toContain('tok-secret');
    expect(line).not.toContain('pw-secret');
    expect(JSON.parse(line ?? '{}')).toMatchObject({
      err: { token: '[redacted]' },
      settings: { password: '[redacted]' },
    });
  });
});
