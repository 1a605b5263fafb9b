import { movieApi, type PayResult, topupApi } from '@sitemall/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../api/keys.ts';
import { useSite } from '../../site/SiteProvider.tsx';

/** Cinema tickets and direct top-up (contract: packages/contract/src/movie.ts). */

const catalogue = <T>(siteId: string, what: string, ids: string[], load: () => Promise<T>, enabled = true) =>
  queryOptions({
    queryKey: keys.movie.catalogue(siteId, what, ...ids),
    queryFn: load,
    enabled: enabled && !!siteId,
    staleTime: 60_000,
    retry: false,
  });

export const citiesQuery = (siteId: string) =>
  catalogue(siteId, 'cities', [], () => call(movieApi.cities, { siteId }));
export const filmsQuery = (siteId: string, cityId: string) =>
  catalogue(siteId, 'films', [cityId], () => call(movieApi.films, { siteId, cityId }), !!cityId);
export const cinemasQuery = (siteId: string, cityId: string, filmId: string) =>
  catalogue(
    siteId,
    'cinemas',
    [cityId, filmId],
    () => call(movieApi.cinemas, { siteId, cityId, filmId }),
    !!filmId,
  );
export const showsQuery = (siteId: string, cinemaId: string, filmId: string) =>
  catalogue(
    siteId,
    'shows',
    [cinemaId, filmId],
    () => call(movieApi.shows, { siteId, cinemaId, filmId }),
    !!cinemaId,
  );
/** Seats change as others buy: always read fresh. */
export const seatsQuery = (siteId: string, showId: string) =>
  queryOptions({
    ...catalogue(siteId, 'seats', [showId], () => call(movieApi.seats, { siteId, showId }), !!showId),
    staleTime: 0,
  });

/** Locks the chosen seats and makes the order; the seat map is read again either way. */
export function useLockSeats() {
  const { siteId } = useSite();
  const sid = siteId ?? '';
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { showId: string; seatIds: string[]; requestId: string }) =>
      call(movieApi.lockSeats, { siteId: sid, ...input, seatIds: input.seatIds.join(',') }),
    onSettled: (_data, _error, input) => {
      void queryClient.invalidateQueries({ queryKey: keys.movie.catalogue(sid, 'seats', input.showId) });
      void queryClient.invalidateQueries({ queryKey: keys.order.all(sid) });
    },
  });
}

/** Movie ticket pay with points; the ticket is issued after, the order and balance re-read. */
export function useMovieYePay() {
  const { siteId } = useSite();
  const sid = siteId ?? '';
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderNo: string): Promise<PayResult> =>
      call(movieApi.pay, { siteId: sid, orderNo, payWay: 'ye' }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.member(sid) }),
  });
}

export function useTopup() {
  const { siteId } = useSite();
  const sid = siteId ?? '';
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { phone: string; amount: number; requestId: string }) =>
      call(topupApi.submit, { siteId: sid, ...input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.order.all(sid) }),
  });
}

/** One request id per attempt: a double click or a retry makes one order. */
export const newRequestId = () => `${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 12)}`;
