// Bench helper: the embedded S3 server in its own process, so that the app
// and the raw SDK client are measured against the same server.
import { startEmbeddedS3 } from '../src/storage/embedded-s3.ts';

const [directory, bucket] = process.argv.slice(2);
const server = await startEmbeddedS3({ directory: directory!, port: 0, bucket: bucket! });
process.stdout.write(`${JSON.stringify({ endpoint: server.endpoint })}\n`);
process.once('SIGTERM', () => server.stop().then(() => process.exit(0)));
