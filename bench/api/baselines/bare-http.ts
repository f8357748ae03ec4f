// Baseline 1, the ceiling of the machine: Node's HTTP server answering every
// request with the same JSON body (BENCH_BODY), nothing else.
import { createServer } from 'node:http';

const body = Buffer.from(process.env.BENCH_BODY ?? '{"success":true}');
createServer((request, response) => {
  // Drain whatever was sent (POST bodies), then answer.
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    response.end(body);
  });
}).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
