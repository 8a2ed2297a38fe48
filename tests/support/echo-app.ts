/**
 * The source of a web app in plain Node (no packages) to run in a workspace: `respond` is its
 * request handler's body (request `q`, response `r`), and its WebSocket answers each small text
 * frame with `echo <text>` (RFC 6455's handshake, one frame at a time). It listens on APP_PORT_1,
 * at the address its first argument names (every IPv4 address without one).
 */
export const echoAppSource = (respond: string) => String.raw`
const http = require('node:http'), crypto = require('node:crypto');
const server = http.createServer((q, r) => { ${respond} });
server.on('upgrade', (request, socket) => {
  const accept = crypto.createHash('sha1').update(request.headers['sec-websocket-key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
  socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ' + accept + '\r\n\r\n');
  socket.on('data', (frame) => {
    const mask = frame.subarray(2, 6);
    const text = Buffer.from(frame.subarray(6, 6 + (frame[1] & 127)).map((b, i) => b ^ mask[i % 4])).toString();
    const out = Buffer.from('echo ' + text);
    socket.write(Buffer.concat([Buffer.from([0x81, out.length]), out]));
  });
});
server.listen(Number(process.env.APP_PORT_1), process.argv[2] || '0.0.0.0');
`;

/** A page that opens a WebSocket to its own origin, sends `hello` and shows the answer in `#ws`. */
export const WEBSOCKET_PAGE_SCRIPT =
  '<script>const s = new WebSocket("ws://" + location.host + "/hmr"); s.onopen = () => s.send("hello"); s.onmessage = (m) => document.getElementById("ws").textContent = m.data;</script>';
