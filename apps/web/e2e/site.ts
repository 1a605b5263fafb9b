import { createDecipheriv } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import type { SiteConfig } from '@sitemall/contract';
import { isPlainHotline } from '@sitemall/contract';

/** Reads a site's configuration from the real API, so tests check what the server says. */
export async function siteConfig(request: APIRequestContext, siteId: number): Promise<SiteConfig> {
  const answer = await request.post('/front-mall-api/mall/mallsite/getSiteConfig', { data: { siteId } });
  const body = (await answer.json()) as { code: number; data: SiteConfig };
  if (body.code !== 200) throw new Error(`site ${siteId}: code ${body.code}`);
  return body.data;
}

/** The hotline a shopper should see: decrypted here with node:crypto, independently of the page. */
export async function shownHotline(request: APIRequestContext, hotline: string): Promise<string> {
  if (isPlainHotline(hotline)) return hotline;
  const answer = await request.get('/front-mall-api/app/client/clientKeys');
  const key = Buffer.from(
    ((await answer.json()) as { data: { hotlineKey: string } }).data.hotlineKey,
    'base64',
  );
  const bytes = Buffer.from(hotline, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString(
    'utf8',
  );
}

export const SITES = [719, 10110, 1000] as const;
