// The parts of @20minutes/s3rver (no bundled types) that src/storage uses.
declare module '@20minutes/s3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    directory?: string;
    silent?: boolean;
    configureBuckets?: Array<{ name: string; configs: Array<string | Buffer> }>;
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    middleware: Array<(ctx: any, next: () => Promise<void>) => unknown>;
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
