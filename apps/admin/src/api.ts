import {
  ADMIN_API_PREFIX,
  type BodyOf,
  CODE,
  type DataOf,
  type Endpoint,
  type EnvelopeOf,
} from '@sitemall/contract';

/**
 * The console's request layer: every call names an endpoint of the contract (`adminApi`);
 * method and path come from its declaration, the operator's token goes in the `token` header.
 * Any code but 200 rejects with an ApiError carrying the server's msg; 401/416 also end the
 * session here and send the operator to the login page.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const TOKEN_KEY = 'sitemall.admin.token';
export const getToken = () => sessionStorage.getItem(TOKEN_KEY) ?? '';
export const setToken = (token: string) =>
  token ? sessionStorage.setItem(TOKEN_KEY, token) : sessionStorage.removeItem(TOKEN_KEY);

let onSessionEnd: () => void = () => {};
export const whenSessionEnds = (handler: () => void) => {
  onSessionEnd = handler;
};

/** GET payloads become the query string (absent and empty values left out). */
function queryOf(payload: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(payload))
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export async function call<E extends Endpoint>(declared: E, payload: BodyOf<E>): Promise<DataOf<E>> {
  const body = payload as Record<string, unknown>;
  const url = `${ADMIN_API_PREFIX}${declared.path}${declared.method === 'GET' ? queryOf(body) : ''}`;
  const token = getToken();
  const res = await fetch(url, {
    method: declared.method,
    headers: {
      ...(token ? { token } : {}),
      ...(declared.method === 'POST' ? { 'content-type': 'application/json' } : {}),
    },
    body: declared.method === 'POST' ? JSON.stringify(body) : undefined,
  });
  return dataOf<E>(res);
}

/** The envelope's data; a refusal rejects with the server's msg (401/416 end the session). */
async function dataOf<E extends Endpoint>(res: Response): Promise<DataOf<E>> {
  const answer = (await res
    .json()
    .catch(() => ({ code: res.status, msg: '请求失败，请稍后再试' }))) as EnvelopeOf<DataOf<E>>;
  if (answer.code === CODE.unauthorized || answer.code === CODE.tokenInvalid) {
    setToken('');
    onSessionEnd();
  }
  if (answer.code !== CODE.ok) throw new ApiError(answer.msg || '请求失败，请稍后再试', answer.code);
  return answer.data as DataOf<E>;
}

/**
 * An upload (a picture, a sheet): the payload's fields and the file under `file`, as multipart
 * form data; the answer as `call`.
 */
export async function callForm<E extends Endpoint>(
  declared: E,
  payload: Omit<BodyOf<E>, 'file'>,
  file: Blob,
  fileName: string,
): Promise<DataOf<E>> {
  const form = new FormData();
  for (const [key, value] of Object.entries(payload as Record<string, unknown>))
    if (value !== undefined && value !== null) form.append(key, String(value));
  form.append('file', file, fileName);
  const token = getToken();
  const res = await fetch(`${ADMIN_API_PREFIX}${declared.path}`, {
    method: 'POST',
    headers: token ? { token } : {},
    body: form,
  });
  return dataOf<E>(res);
}

let onListError: (error: Error) => void = () => {};
/** Who tells the operator that a list could not load: ProTable alone would show its empty text. */
export const whenListFails = (handler: (error: Error) => void) => {
  onListError = handler;
};

type RowsOf<E extends Endpoint> = DataOf<E> extends { list: infer L } ? L : never;

/** The latest request of each list, by endpoint: a console page shows one table per endpoint. */
const latestOfList = new Map<string, number>();
let listRequests = 0;

/**
 * A paged console list as ProTable's `request` wants it. A refusal is said (`whenListFails`) and
 * answers `success: false`, on which ProTable keeps the rows it had. ProTable applies every
 * answer it asked for, in the order they come back: an answer overtaken by a newer request of the
 * same list (a search clicked while the first page still loads) would replace the newer rows, so
 * it answers `success: false` too, and is not said.
 */
export async function pageOf<E extends Endpoint>(
  declared: E,
  payload: BodyOf<E>,
): Promise<{ data: RowsOf<E>; total: number; success: boolean }> {
  const request = ++listRequests;
  latestOfList.set(declared.path, request);
  const overtaken = () => latestOfList.get(declared.path) !== request;
  try {
    const page = (await call(declared, payload)) as { list: never; total: number };
    if (!overtaken()) return { data: page.list, total: page.total, success: true };
  } catch (error) {
    if (!overtaken()) onListError(error as Error);
  }
  return { data: [] as never, total: 0, success: false };
}

/** Every row of a list a form offers to choose from (a select): a refusal is said, and offers none. */
export async function rowsOf<E extends Endpoint>(declared: E, payload: BodyOf<E>): Promise<RowsOf<E>> {
  try {
    return ((await call(declared, payload)) as { list: never }).list;
  } catch (error) {
    onListError(error as Error);
    return [] as never;
  }
}

/** A file answer's response; a refusal (the envelope) rejects like `call`. */
async function fetchFile<E extends Endpoint>(declared: E, payload: BodyOf<E>): Promise<Response> {
  const token = getToken();
  const get = declared.method === 'GET';
  const res = await fetch(
    `${ADMIN_API_PREFIX}${declared.path}${get ? queryOf(payload as Record<string, unknown>) : ''}`,
    get
      ? { headers: token ? { token } : {} }
      : {
          method: declared.method,
          headers: { ...(token ? { token } : {}), 'content-type': 'application/json' },
          body: JSON.stringify(payload),
        },
  );
  if (res.headers.get('content-type')?.includes('json')) {
    const answer = (await res.json()) as EnvelopeOf<unknown>;
    throw new ApiError(answer.msg || '请求失败，请稍后再试', answer.code);
  }
  return res;
}

/**
 * A file answer (an export, a code sheet): saved as `fileName`, or under the name the
 * server gives. GET payloads go in the query string, others as JSON. A refusal is still the
 * envelope and rejects like `call`.
 */
export async function callFile<E extends Endpoint>(
  declared: E,
  payload: BodyOf<E>,
  fileName?: string,
): Promise<string> {
  const res = await fetchFile(declared, payload);
  const given = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1];
  const name = fileName ?? given ?? 'download';
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await res.blob());
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
  return name;
}

/** A file answer (a picture) as an object URL to show; the caller revokes it when done. */
export async function fileUrl<E extends Endpoint>(declared: E, payload: BodyOf<E>): Promise<string> {
  return URL.createObjectURL(await (await fetchFile(declared, payload)).blob());
}
