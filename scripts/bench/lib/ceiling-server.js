// The ceiling: a bare node:http server answering every request with one
// recorded response (status, content type and encoding, body bytes), so it
// shows what Node's HTTP stack alone can serve on this machine.
// Usage: node ceiling-server.js <recorded-response.json>
import { readFileSync } from "node:fs";
import http from "node:http";

const recorded = JSON.parse(readFileSync(process.argv[2], "utf8"));
const body = Buffer.from(recorded.body, "base64");

const server = http.createServer((_req, res) => {
  res.writeHead(recorded.status, recorded.headers);
  res.end(body);
});
server.listen(0, "127.0.0.1", () => console.log(`ceiling listening on http://127.0.0.1:${server.address().port}`));
process.once("SIGTERM", () => server.close(() => process.exit(0)));
