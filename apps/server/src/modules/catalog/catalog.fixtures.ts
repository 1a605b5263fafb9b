import type { App } from '../../app';

/** Test helpers for the catalog module's shop-street calls (real app, real database). */

/** The smallest file each accepted image type is told by. */
export const IMAGES = {
  png: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]),
  jpg: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]),
  webp: Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP'), Buffer.alloc(64, 3)]),
};

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
    url: '/front-mall-api/mall/merchant/uploadLicence',
    headers: { 'content-type': request.headers.get('content-type')!, ...options.headers },
    payload: Buffer.from(await request.arrayBuffer()),
    ...(options.ip ? { remoteAddress: options.ip } : {}),
  });
  return {
    status: res.statusCode,
    body: res.json() as { code: number; msg: string; data: { url: string } | null },
  };
}
