import { describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';

const t = withTestApp({ APP_MODE: 'oss' });

describe('oss mode', () => {
  it('treats every caller as the one local, active user', async () => {
    const me = await call(t.app, 'GET', '/api/auth/me/extended');
    expect(me).toMatchObject({ status: 200, body: { id: 'local', is_active: true } });
    expect((await call(t.app, 'POST', '/api/authenticate')).status).toBe(200);
  });
  it('tells the client its mode', async () => {
    expect((await call(t.app, 'GET', '/api/options/config')).body).toMatchObject({ APP_MODE: 'oss' });
  });
});
