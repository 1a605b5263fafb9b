import { type Address, addressApi, type District, type SaveAddressBody } from '@sitemall/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../api/keys.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { getToken } from '../../site/storage.ts';

/** Delivery address calls (spec section 7; contract packages/contract/src/address.ts). */

/** The default address first, then the newest. */
export const sortAddresses = (list: readonly Address[]): Address[] =>
  [...list].sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || b.id - a.id);

export const addressListQuery = (siteId: string) =>
  queryOptions({
    queryKey: keys.address.list(siteId),
    queryFn: async () => sortAddresses((await call(addressApi.list, { siteId }))?.list ?? []),
    retry: false,
  });

export function useAddresses() {
  const { siteId } = useSite();
  return useQuery({ ...addressListQuery(siteId ?? ''), enabled: !!siteId && !!getToken() });
}

export type AddressInput = Omit<SaveAddressBody, 'siteId'>;

export const saveAddress = (siteId: string, input: AddressInput) =>
  call(addressApi.save, { siteId, ...input }, { repeat: true });
export const deleteAddress = (siteId: string, id: number) =>
  call(addressApi.delete, { siteId, id }, { repeat: true });
export const setDefaultAddress = (siteId: string, id: number) =>
  call(addressApi.setDefault, { siteId, id }, { repeat: true });

/** An address write; the list is re-read before the write counts as done. */
function useAddressWrite<V, T>(write: (siteId: string, input: V) => Promise<T>) {
  const { siteId } = useSite();
  const queryClient = useQueryClient();
  const sid = siteId ?? '';
  return useMutation({
    mutationFn: (input: V) => write(sid, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.address.all(sid) }),
  });
}
export const useSaveAddress = () => useAddressWrite(saveAddress);
export const useDeleteAddress = () => useAddressWrite(deleteAddress);
export const useSetDefaultAddress = () => useAddressWrite(setDefaultAddress);

/** Provinces (no parentCode) or the children of a code. */
export const districtQuery = (parentCode: string) =>
  queryOptions({
    queryKey: keys.address.districts(parentCode),
    queryFn: async (): Promise<District[]> =>
      (await call(addressApi.districtList, parentCode ? { parentCode } : {}))?.list ?? [],
    staleTime: Number.POSITIVE_INFINITY,
  });

/** One line of an address as shown: 省 市 区 详细地址. */
export const addressText = (
  a: Pick<Address, 'provinceName' | 'cityName' | 'districtName' | 'detail'>,
): string => [a.provinceName, a.cityName, a.districtName, a.detail].filter(Boolean).join(' ');
