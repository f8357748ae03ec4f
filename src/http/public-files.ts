import type { Middleware } from 'koa';
import { notFound } from '../errors.ts';
import type { ObjectStore } from '../storage/object-store.ts';

const PUBLIC_KEY = /^public\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.[a-z]{2,5}$/;

/**
 * `GET /files/public/...`: public uploads, streamed from the store without
 * authentication. Only keys of the public namespace are ever served.
 */
export function servePublicFiles(store: ObjectStore): Middleware {
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/files/') || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const key = ctx.path.slice('/files/'.length);
    const object = PUBLIC_KEY.test(key) ? await store.get(key) : null;
    if (!object) throw notFound(`File ${key} not found`);
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.type = object.contentType ?? 'application/octet-stream';
    if (object.contentLength !== undefined) ctx.length = object.contentLength;
    ctx.body = object.body;
  };
}
