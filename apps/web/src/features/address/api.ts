import type { Address, AddressList, District, DistrictList, SaveAddressBody } from '@sitemall/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type Payload, request } from '../../api/request.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { getToken } from '../../site/storage.ts';

/** Delivery address calls (spec section 7; contract packages/contract/src/address.ts). */
export const ADDRESS_PATHS = {
  list: '/api/address/list',
  save: '/api/address/save',
  remove: '/api/address/delete',
  setDefault: '/api/address/setDefault',
  districts: '/api/address/districtList',
} as const;

export class AddressError extends Error {}

async function call<T>(path: string, payload: Payload, repeat = false): Promise<T> {
  const answer = await request<T>(path, payload, repeat ? { repeat } : {});
  if (answer.code !== 200) throw new AddressError(answer.msg || '请求失败，请稍后再试');
  return answer.data as T;
}

export const addressKey = (siteId: string) => ['identity', siteId, 'address'] as const;

/** The default address first, then the newest. */
export const sortAddresses = (list: readonly Address[]): Address[] =>
  [...list].sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || b.id - a.id);

export const addressListQuery = (siteId: string) =>
  queryOptions({
    queryKey: [...addressKey(siteId), 'list'],
    queryFn: async () => sortAddresses((await call<AddressList>(ADDRESS_PATHS.list, { siteId }))?.list ?? []),
    retry: false,
  });

export function useAddresses() {
  const { siteId } = useSite();
  return useQuery({ ...addressListQuery(siteId ?? ''), enabled: !!siteId && !!getToken() });
}

export type AddressInput = Omit<SaveAddressBody, 'siteId'>;

export const saveAddress = (siteId: string, input: AddressInput) =>
  call<Address>(ADDRESS_PATHS.save, { siteId, ...input }, true);
export const deleteAddress = (siteId: string, id: number) =>
  call<unknown>(ADDRESS_PATHS.remove, { siteId, id }, true);
export const setDefaultAddress = (siteId: string, id: number) =>
  call<unknown>(ADDRESS_PATHS.setDefault, { siteId, id }, true);

/** Provinces (no parentCode) or the children of a code. */
export const districtQuery = (parentCode: string) =>
  queryOptions({
    queryKey: ['districts', parentCode],
    queryFn: async (): Promise<District[]> =>
      (await call<DistrictList>(ADDRESS_PATHS.districts, parentCode ? { parentCode } : {}))?.list ?? [],
    staleTime: Number.POSITIVE_INFINITY,
  });

/** One line of an address as shown: 省 市 区 详细地址. */
export const addressText = (
  a: Pick<Address, 'provinceName' | 'cityName' | 'districtName' | 'detail'>,
): string => [a.provinceName, a.cityName, a.districtName, a.detail].filter(Boolean).join(' ');
