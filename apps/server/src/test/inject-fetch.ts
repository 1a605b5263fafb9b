import type { FastifyInstance } from 'fastify';

/**
 * A fetch that answers from the app itself (app.inject) instead of the network: the WeChat
 * Pay adapter and simulator exchange real HTTP messages (headers, raw bytes, status) in tests
 * without a listening socket.
 */
export function injectFetch(appOf: () => FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.method === 'GET' ? undefined : await request.text();
    const res = await appOf().inject({
      method: request.method as 'GET' | 'POST',
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers),
      ...(body ? { payload: body } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    const empty = res.statusCode === 204 || res.statusCode === 304;
    return new Response(empty ? null : res.rawPayload, { status: res.statusCode, headers });
  };
}
