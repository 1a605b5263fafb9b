import { type BodyOf, CODE, type DataOf, type Endpoint } from '@sitemall/contract';
import { type DownloadedFile, download, type Payload, type RequestOptions, request } from './request.ts';

/**
 * A refused call: the server's msg, and its code for callers that care (the one error type);
 * `data` is what the refusal carried, if anything (a partner login's authErrUrl).
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type CallOptions = Omit<RequestOptions, 'method' | 'encoding'>;

/** The method and encoding a declaration asks for. */
const how = (declared: Endpoint): Pick<RequestOptions, 'method' | 'encoding'> => ({
  method: declared.method,
  ...(declared.encoding ? { encoding: declared.encoding } : {}),
});

/**
 * Calls an endpoint of the contract and resolves with the `data` of its answer; any other
 * code rejects with an `ApiError` carrying the server's msg. Method, path and encoding come
 * from the declaration; the request layer keeps the envelope rules, 401/416 and toasts.
 */
export async function call<E extends Endpoint>(
  declared: E,
  payload: BodyOf<E> | Payload,
  options: CallOptions = {},
): Promise<DataOf<E>> {
  const answer = await request<DataOf<E>>(declared.path, payload as Payload, {
    ...options,
    ...how(declared),
  });
  if (answer.code !== CODE.ok)
    throw new ApiError(answer.msg || '请求失败，请稍后再试', answer.code, answer.data);
  return answer.data as DataOf<E>;
}

/**
 * Downloads the file an endpoint answers (`file` in its declaration). A refusal is an
 * envelope, settled like any other, and rejects with its msg.
 */
export const callFile = <E extends Endpoint>(
  declared: E,
  payload: BodyOf<E> | Payload,
  options: CallOptions & { fileName?: string } = {},
): Promise<DownloadedFile> => download(declared.path, payload as Payload, { ...options, ...how(declared) });
