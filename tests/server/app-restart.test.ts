import { beforeAll, describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import {
  createRunning,
  listen,
  runInTerminal,
  signUp,
  SocketClient,
  waitFor,
  waitRunning,
} from '../support/conversations.ts';

// An app the agent served is remembered with the command that served it: after the runtime
// restarts (Runtime → Restart, reopening a stopped conversation) it is offered to start again,
// and starts without any model call, in a terminal of the user's on the same app port.

const t = withTestApp();
let baseUrl: string;
let user: { token: string; id: string };

beforeAll(async () => {
  baseUrl = await listen(t.app);
  user = await signUp(t.app, t.db, 'app-restart@acme.example');
});

type WebHosts = { hosts: string[]; stopped_apps: { port: number; command: string }[] };

describe('a served app after a restart', () => {
  it('is offered again with its command, and starts without the agent', async () => {
    const conversation = await createRunning(t.app, user.token);
    const id = conversation.conversation_id;
    const webHosts = async () =>
      (await call(t.app, 'GET', `/api/conversations/${id}/web-hosts`, { token: user.token })).body as WebHosts;
    const socket = await SocketClient.open(baseUrl, {
      conversation_id: id,
      latest_event_id: -1,
      auth_token: user.token,
    });
    await runInTerminal(socket, 'mkdir -p site && cd site && echo restarted-app > index.html');
    await runInTerminal(socket, '(python3 -m http.server $APP_PORT_1 --bind 127.0.0.1 > /tmp/http.log 2>&1 &)');
    const serving = await waitFor(webHosts, (hosts) => hosts.hosts.length === 1, 15_000, 'the app to serve');
    expect(serving.stopped_apps).toEqual([]);
    await socket.close();

    expect((await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: user.token })).status).toBe(200);
    expect((await call(t.app, 'POST', `/api/conversations/${id}/start`, { token: user.token, body: {} })).status).toBe(
      200,
    );
    await waitRunning(t.app, user.token, id);
    const port = t.app.modules.conversations.manager.session(id)?.ports[0];
    const offered = await webHosts();
    expect(offered.hosts).toEqual([]);
    expect(offered.stopped_apps).toEqual([
      { port, command: `cd site && python3 -m http.server ${port} --bind 127.0.0.1` },
    ]);

    const started = await call(t.app, 'POST', `/api/conversations/${id}/web-hosts/start`, { token: user.token });
    expect(started.status).toBe(200);
    expect(started.body?.terminals).toEqual([{ id: expect.any(String), exited: false }]);
    const back = await waitFor(webHosts, (hosts) => hosts.hosts.length === 1, 15_000, 'the app to serve again');
    expect(back.stopped_apps).toEqual([]);
    // It serves what it served, from where it ran.
    const page = await waitFor(
      () =>
        t.app.modules.conversations.manager.session(id)?.runCommand({ command: `curl -s http://127.0.0.1:${port}/` }),
      (result) => result?.output.includes('restarted-app') === true,
      10_000,
      'the page',
    );
    expect(page?.output).toContain('restarted-app');

    const again = await call(t.app, 'POST', `/api/conversations/${id}/web-hosts/start`, { token: user.token });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: 'No app to start again: every port that served one serves it now.' });
  });
});
