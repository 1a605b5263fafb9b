import { catalogApi, shopUrl } from '@sitemall/contract';
import type { App } from '../../app';

/** Test helpers for merchant onboarding calls (real app, real database). */

/** Uploads a licence as the storefront does (multipart siteId + file). */
export async function uploadLicenceFile(
  app: App,
  file: Buffer,
  options: {
    filename?: string;
    type?: string;
    siteId?: string;
    ip?: string;
    headers?: Record<string, string>;
  } = {},
) {
  const form = new FormData();
  form.append('siteId', options.siteId ?? '719');
  form.append(
    'file',
    new Blob([file], { type: options.type ?? 'image/png' }),
    options.filename ?? 'licence.png',
  );
  const request = new Request('http://x', { method: 'POST', body: form });
  const res = await app.inject({
    method: 'POST',
    url: shopUrl(catalogApi.licenceUpload),
    headers: { 'content-type': request.headers.get('content-type')!, ...options.headers },
    payload: Buffer.from(await request.arrayBuffer()),
    ...(options.ip ? { remoteAddress: options.ip } : {}),
  });
  return {
    status: res.statusCode,
    body: res.json() as { code: number; msg: string; data: { url: string } | null },
  };
}
