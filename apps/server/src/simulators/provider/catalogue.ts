import type { MovieCinema, MovieCity, MovieFilm, MovieShow } from '@sitemall/contract';
import { chinaTime } from '../../lib/china-time';

/**
 * The cinema simulator's catalogue: a few cities, cinemas and films (names made up), with
 * shows today and tomorrow (China time) at fixed hours, so a demo and a test always find a
 * show in the future.
 */

export const CITIES: MovieCity[] = [
  { cityId: '310100', cityName: '上海' },
  { cityId: '110100', cityName: '北京' },
  { cityId: '440100', cityName: '广州' },
];

export const FILMS: MovieFilm[] = [
  {
    filmId: 'F01',
    filmName: '星河漫游',
    poster: '/media/demo/film-F01.svg',
    duration: 126,
    score: '9.1',
    filmType: '科幻',
  },
  {
    filmId: 'F02',
    filmName: '长安夜话',
    poster: '/media/demo/film-F02.svg',
    duration: 118,
    score: '8.7',
    filmType: '剧情',
  },
  {
    filmId: 'F03',
    filmName: '海底小英雄',
    poster: '/media/demo/film-F03.svg',
    duration: 95,
    score: '8.9',
    filmType: '动画',
  },
  {
    filmId: 'F04',
    filmName: '追风少年',
    poster: '/media/demo/film-F04.svg',
    duration: 108,
    score: '8.2',
    filmType: '运动',
  },
];

const CINEMA_NAMES: Record<string, [string, string][]> = {
  '310100': [
    ['人民广场影城', '黄浦区西藏中路 88 号'],
    ['浦江国际影城', '浦东新区张杨路 501 号'],
  ],
  '110100': [
    ['长安街影城', '东城区东长安街 1 号'],
    ['中关村星光影城', '海淀区中关村大街 15 号'],
  ],
  '440100': [
    ['珠江影城', '天河区珠江新城花城大道 20 号'],
    ['北京路影院', '越秀区北京路 168 号'],
  ],
};

export const cinemasOf = (cityId: string): MovieCinema[] =>
  (CINEMA_NAMES[cityId] ?? []).map(([cinemaName, address], i) => ({
    cinemaId: `C${cityId}${i + 1}`,
    cinemaName,
    address,
  }));

export const cinemaById = (cinemaId: string) =>
  CITIES.flatMap((c) => cinemasOf(c.cityId)).find((c) => c.cinemaId === cinemaId);

const SHOW_TIMES = ['1000', '1430', '1930', '2150'];
const HALLS = ['1号厅', '2号厅 IMAX', '3号厅', '4号厅 杜比'];
export const SEAT_ROWS = 8;
export const SEAT_COLS = 10;

/** showId: <cinemaId>-<filmId>-<YYYYMMDD><HHmm>; every part is checked against the catalogue. */
export function showById(showId: string): MovieShow | undefined {
  const match = /^(C\d+)-(F\d+)-(\d{8})(\d{4})$/.exec(showId);
  if (!match) return undefined;
  const [, cinemaId, filmId, day, hhmm] = match as unknown as [string, string, string, string, string];
  const slot = SHOW_TIMES.indexOf(hhmm);
  if (!cinemaById(cinemaId) || !FILMS.some((f) => f.filmId === filmId) || slot < 0) return undefined;
  const startTime = new Date(
    `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}T${hhmm.slice(0, 2)}:${hhmm.slice(2)}:00+08:00`,
  );
  if (Number.isNaN(startTime.getTime())) return undefined;
  return {
    showId,
    cinemaId,
    filmId,
    startTime: startTime.toISOString(),
    hall: HALLS[slot] as string,
    language: slot === 2 ? '国语 3D' : '国语 2D',
    price: 3500 + slot * 500,
  };
}

/** The shows of a film at a cinema that have not started yet, today and tomorrow. */
export function showsOf(cinemaId: string, filmId: string, now: Date): MovieShow[] {
  const days = [now, new Date(now.getTime() + 86_400_000)].map((d) => chinaTime(d, 'YYYYMMDD'));
  return days
    .flatMap((day) => SHOW_TIMES.map((t) => showById(`${cinemaId}-${filmId}-${day}${t}`)))
    .filter((s): s is MovieShow => s !== undefined && new Date(s.startTime) > now);
}

export const seatName = (row: number, col: number) => `${row}排${col}座`;

/** Seats someone else bought: a fixed pattern per show, so the map looks lived in. */
export function soldBefore(showId: string, row: number, col: number): boolean {
  let h = 0;
  for (const ch of `${showId}:${row}:${col}`) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h % 7 === 0;
}
