import { type Static, Type } from '@sinclair/typebox';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Int } from './numbers.ts';
import { PayOrderBody, PayResultReply } from './order.ts';
import { SiteId } from './site.ts';

/**
 * Provider goods (issue 15 item 3; design promotions.md section 8): cinema tickets (source
 * types 20/56/57), direct top-up (26) and e-codes of other brands (23/27), issued by a provider
 * after payment; and the promise calendar (delivery dates per supply source and region).
 * Every amount is an integer in fen.
 */

/** The supply sources (spec section 3) of cinema tickets and direct top-ups. */
export const MOVIE_SOURCE = 20;
export const TOPUP_SOURCE = 26;

/** Face values of a direct top-up, yuan. */
export const TOPUP_AMOUNTS = [10, 20, 30, 50, 100, 200] as const;
/** Seats one order may lock. */
export const MAX_SEATS = 4;

export const MOVIE_MSG = {
  noSeats: '请选择座位',
  tooManySeats: `每单最多选择 ${MAX_SEATS} 个座位`,
  seatTaken: '所选座位已被占用，请重新选座',
  showNotFound: '场次不存在或已停售',
  providerDown: '影院系统繁忙，请稍后再试',
  locked: '锁座成功，请在规定时间内支付',
  notMovieOrder: '不是电影票订单',
  badPhone: '请输入正确的 11 位手机号',
  badAmount: `充值面额须为 ${TOPUP_AMOUNTS.join('、')} 元之一`,
  topupSubmitted: '充值订单已提交，请支付',
  codesSoldOut: '电子码已售罄',
} as const;

const Code = Type.String({ minLength: 1, maxLength: 32, pattern: '^[\\w-]+$' });

export const MovieCity = Type.Object({ cityId: Type.String(), cityName: Type.String() });
export const MovieFilm = Type.Object({
  filmId: Type.String(),
  filmName: Type.String(),
  poster: Type.String(),
  duration: Type.Integer({ description: 'minutes' }),
  score: Type.String(),
  filmType: Type.String(),
});
export const MovieCinema = Type.Object({
  cinemaId: Type.String(),
  cinemaName: Type.String(),
  address: Type.String(),
});
export const MovieShow = Type.Object({
  showId: Type.String(),
  filmId: Type.String(),
  cinemaId: Type.String(),
  startTime: Type.String({ format: 'date-time' }),
  hall: Type.String(),
  language: Type.String(),
  price: Type.Integer({ description: 'fen per seat' }),
});
export const SEAT_STATUS = ['available', 'sold', 'locked'] as const;
export const MovieSeat = Type.Object({
  seatId: Type.String(),
  row: Type.Integer(),
  col: Type.Integer(),
  /** As printed on the ticket, e.g. 5排8座. */
  name: Type.String(),
  status: Type.Union(SEAT_STATUS.map((s) => Type.Literal(s))),
});
export const SeatMap = Type.Object({
  show: MovieShow,
  filmName: Type.String(),
  cinemaName: Type.String(),
  rows: Type.Integer(),
  cols: Type.Integer(),
  seats: Type.Array(MovieSeat),
});
export type MovieCity = Static<typeof MovieCity>;
export type MovieFilm = Static<typeof MovieFilm>;
export type MovieCinema = Static<typeof MovieCinema>;
export type MovieShow = Static<typeof MovieShow>;
export type MovieSeat = Static<typeof MovieSeat>;
export type SeatMap = Static<typeof SeatMap>;

/** A provider order's order, as lockSeats and topup submit answer it. */
export const ProviderSubmitResult = Type.Object({
  orderNo: Type.String(),
  childOrderNo: Type.Array(Type.String()),
  payAmount: Type.Integer(),
  status: Type.Integer(),
  expireTime: Type.String({ format: 'date-time' }),
  /** Movie: until when the provider holds the seats (never before the order's expiry). */
  lockExpireTime: Type.Optional(Type.String({ format: 'date-time' })),
  msg: Type.String(),
});
export type ProviderSubmitResult = Static<typeof ProviderSubmitResult>;

const RequestId = Type.Optional(Type.String({ minLength: 8, maxLength: 64, pattern: '^[\\w.:-]+$' }));

export const LockSeatsBody = Type.Object({
  siteId: SiteId,
  showId: Code,
  /** Seat ids, an array or comma separated. */
  seatIds: Type.Union([
    Type.Array(Code, { maxItems: 20 }),
    Type.String({ maxLength: 400, pattern: '^[\\w,-]*$' }),
  ]),
  requestId: RequestId,
});
export type LockSeatsBody = Static<typeof LockSeatsBody>;

export const TopupBody = Type.Object({
  siteId: SiteId,
  phone: Type.String({ maxLength: 32 }),
  /** Face value, yuan (TOPUP_AMOUNTS). */
  amount: Int(1, 100_000),
  requestId: RequestId,
});
export type TopupBody = Static<typeof TopupBody>;

export const MovieAuth = Type.Object({
  /** The provider's cinema H5 with a short-lived authorisation of this member. */
  authUrl: Type.String(),
  expireTime: Type.String({ format: 'date-time' }),
});

/** Delivery promise of one supply source to one region (spec: promise calendar). */
export const PromiseEntry = Type.Object({
  source: Type.Integer(),
  sourceName: Type.String(),
  provinceCode: Type.String(),
  /** Virtual goods: issued right after payment (no delivery days). */
  isInstant: Type.Boolean(),
  /** Earliest and latest delivery day, YYYY-MM-DD (China time). */
  earliest: Type.String(),
  latest: Type.String(),
  /** e.g. 预计 6月12日-6月14日 送达 */
  text: Type.String(),
});
export type PromiseEntry = Static<typeof PromiseEntry>;
export const PromiseCalendarBody = Type.Object({
  siteId: SiteId,
  /** Supply sources (comma separated or an array); all of the site's when absent. */
  sources: Type.Optional(
    Type.Union([
      Type.Array(Int(0, 100_000), { maxItems: 50 }),
      Type.String({ maxLength: 300, pattern: '^[\\d,]*$' }),
    ]),
  ),
  provinceCode: Type.Optional(Type.String({ maxLength: 12, pattern: '^\\d*$' })),
});
export type PromiseCalendarBody = Static<typeof PromiseCalendarBody>;

const member = { site: 'required', auth: 'required', tag: 'movie' } as const;
const open = { site: 'required', tag: 'movie' } as const;

export const movieApi = {
  cities: endpoint({
    ...open,
    method: 'POST',
    path: '/api/movie/cities',
    summary: '电影票：城市列表',
    body: Type.Object({ siteId: SiteId }),
    reply: Envelope(Type.Array(MovieCity)),
  }),
  films: endpoint({
    ...open,
    method: 'POST',
    path: '/api/movie/films',
    summary: '电影票：城市热映影片',
    body: Type.Object({ siteId: SiteId, cityId: Code }),
    reply: Envelope(Type.Array(MovieFilm)),
  }),
  cinemas: endpoint({
    ...open,
    method: 'POST',
    path: '/api/movie/cinemas',
    summary: '电影票：城市影院（可按影片筛选）',
    body: Type.Object({ siteId: SiteId, cityId: Code, filmId: Type.Optional(Code) }),
    reply: Envelope(Type.Array(MovieCinema)),
  }),
  shows: endpoint({
    ...open,
    method: 'POST',
    path: '/api/movie/shows',
    summary: '电影票：影院某影片的场次',
    body: Type.Object({ siteId: SiteId, cinemaId: Code, filmId: Code }),
    reply: Envelope(Type.Array(MovieShow)),
  }),
  seats: endpoint({
    ...open,
    method: 'POST',
    path: '/api/movie/seats',
    summary: '电影票：场次座位图',
    body: Type.Object({ siteId: SiteId, showId: Code }),
    reply: Envelope(SeatMap),
  }),
  lockSeats: endpoint({
    ...member,
    method: 'POST',
    path: '/api/movie/lockSeats',
    summary: '电影票：锁座并生成待支付订单（订单有效期不超过锁座时间）',
    body: LockSeatsBody,
    reply: Envelope(ProviderSubmitResult),
  }),
  pay: endpoint({
    ...member,
    method: 'POST',
    path: '/api/movie/pay',
    summary: '电影票支付（积分或微信，支付后出票）',
    body: PayOrderBody,
    reply: PayResultReply,
  }),
  auth: endpoint({
    ...member,
    method: 'POST',
    path: '/api/movie/auth',
    summary: '电影票授权（影院 H5 的会员授权）',
    body: Type.Object({ siteId: SiteId }),
    reply: Envelope(MovieAuth),
  }),
};

export const topupApi = {
  submit: endpoint({
    site: 'required',
    auth: 'required',
    tag: 'topup',
    method: 'POST',
    path: '/api/topup/submit',
    summary: '话费直充：提交订单（手机号、面额），支付后充值',
    body: TopupBody,
    reply: Envelope(ProviderSubmitResult),
  }),
};

export const promiseApi = {
  calendar: endpoint({
    site: 'required',
    tag: 'promise',
    method: 'POST',
    path: '/api/promise/calendar',
    summary: '承诺日历：各供应来源到各地区的预计送达日期',
    body: PromiseCalendarBody,
    reply: Envelope(Type.Array(PromiseEntry)),
  }),
};
