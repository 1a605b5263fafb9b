import type { Endpoint } from '@sitemall/contract';
import type { TestApp } from '../../test/harness';

/** Test helpers for the catalogue console (real app, real database). */

/** Posts a console endpoint as multipart form data, as the console's upload does. */
export async function postForm(
  t: TestApp,
  declared: Endpoint,
  fields: Record<string, string>,
  file: { data: Buffer; name: string; type: string } | undefined,
  token?: string,
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append('file', new Blob([file.data], { type: file.type }), file.name);
  const request = new Request('http://x', { method: 'POST', body: form });
  const res = await t.app.inject({
    method: 'POST',
    url: `/admin-api${declared.path}`,
    headers: {
      'content-type': request.headers.get('content-type') as string,
      ...(token ? { token } : {}),
    },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  return res.json() as { code: number; msg: string; data: never };
}
