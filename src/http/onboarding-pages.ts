import { readFile } from 'node:fs/promises';
import Router, { type RouterContext } from '@koa/router';
import type { Context, Middleware } from 'koa';
import { readJsonObject } from '../../rest/json-body.ts';
import { readFilePart } from '../../rest/multipart.ts';
import { badRequest } from '../errors.ts';
import type { FileUpload } from '../files/file-service.ts';
import { ClosedLinkError, type OnboardingService } from '../onboarding/onboarding-service.ts';
import { formPage, messagePage } from '../onboarding/page/html.ts';

const ASSETS = {
  'onboarding.js': 'text/javascript; charset=utf-8',
  'onboarding.css': 'text/css; charset=utf-8',
} as const;

// Same-origin only, no inline code; the token in the address never leaves as a Referer.
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'X-Robots-Tag': 'noindex, nofollow',
};

const readAsset = (name: keyof typeof ASSETS) => readFile(new URL(`../onboarding/page/assets/${name}`, import.meta.url), 'utf8');

/**
 * The person's side of onboarding, outside `/v1`: the page at the emailed
 * link and the few JSON endpoints its script calls. The token in the path is
 * the only credential; it reaches nothing but its own invitation.
 */
export function onboardingPages(onboarding: OnboardingService, limits: { bodyLimit: string; maxUploadBytes: number }): Middleware {
  const router = new Router({ prefix: '/onboarding' });
  const assets = new Map<string, Promise<string>>();

  router.use(async (ctx, next) => {
    ctx.set(PAGE_HEADERS);
    await next();
  });

  router.get('/assets/:name', async (ctx) => {
    const name = ctx.params.name as keyof typeof ASSETS;
    if (!Object.hasOwn(ASSETS, name)) return;
    // A failed read is not kept: the next request tries again.
    if (!assets.has(name)) assets.set(name, readAsset(name).catch((error) => { assets.delete(name); throw error; }));
    ctx.type = ASSETS[name];
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = await assets.get(name);
  });

  router.get('/:token', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    try {
      const invitation = await onboarding.usable(ctx.params.token!);
      ctx.body = formPage({ companyName: invitation.senderCompanyName });
    } catch (error) {
      if (!(error instanceof ClosedLinkError)) throw error;
      ctx.status = error.status;
      ctx.body = messagePage({ title: error.title, message: error.message });
    }
  });

  const json = (handler: (ctx: Context & { params: Record<string, string> }) => Promise<unknown>) => async (ctx: RouterContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await handler(ctx as unknown as Context & { params: Record<string, string> });
  };

  router.get('/:token/form', json((ctx) => onboarding.open(ctx.params.token!)));

  router.put('/:token/draft', json(async (ctx) => {
    const body = await readJsonObject(ctx, limits.bodyLimit);
    return onboarding.saveDraft(ctx.params.token!, body.values);
  }));

  router.put('/:token/documents/:kind', json(async (ctx) => {
    const { documentType, ...unknown } = ctx.query;
    if (Object.keys(unknown).length) throw badRequest(`Unknown query parameter: ${Object.keys(unknown).join(', ')}`);
    if (Array.isArray(documentType)) throw badRequest('documentType: must be given once');
    // Refuse a dead link, a kind not asked for or a bad type before reading (and storing) the file.
    const target = await onboarding.uploadTarget(ctx.params.token!, ctx.params.kind!, documentType);
    const { upload, cleanup } = await readFilePart(ctx, 'file', limits.maxUploadBytes);
    try {
      return await onboarding.upload(ctx.params.token!, target, upload.promise as Promise<FileUpload>);
    } finally {
      await cleanup();
    }
  }));

  router.post('/:token/submit', json(async (ctx) => {
    const body = await readJsonObject(ctx, limits.bodyLimit);
    const { state, submittedAt } = await onboarding.submit(ctx.params.token!, body.values);
    return { state, submittedAt };
  }));

  return router.routes() as unknown as Middleware;
}
