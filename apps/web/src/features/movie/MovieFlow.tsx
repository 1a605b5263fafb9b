import {
  chinaTime,
  MAX_SEATS,
  MOVIE_SOURCE,
  type MovieSeat,
  type MovieShow,
  type ProviderSubmitResult,
  sourceName,
} from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Empty, Result, Segmented, Skeleton, Steps, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import {
  cinemasQuery,
  citiesQuery,
  filmsQuery,
  newRequestId,
  seatsQuery,
  showsQuery,
  useLockSeats,
  useMovieYePay,
} from './api.ts';
import './movie.css';

const STEPS = ['选择影片', '选择影院', '选择场次', '选座', '支付'];
/** Show times are the cinema's, in China time, wherever the browser is. */
const showTime = (iso: string) => chinaTime(iso, 'MM/DD HH:mm');

function Loading({ rows = 4 }: { rows?: number }) {
  return <Skeleton active paragraph={{ rows }} />;
}

/** City → film → cinema → show → seats → pay; the ticket then shows (masked) in order detail. */
export function MovieFlow() {
  const { siteId, site, formatMoney } = useSite();
  const sid = siteId ?? '';
  const link = useSiteLink();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [cityId, setCityId] = useState('');
  const [filmId, setFilmId] = useState('');
  const [cinemaId, setCinemaId] = useState('');
  const [show, setShow] = useState<MovieShow | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [order, setOrder] = useState<ProviderSubmitResult | null>(null);
  const [requestId, setRequestId] = useState(newRequestId);

  const cities = useQuery(citiesQuery(sid));
  const city = cityId || cities.data?.[0]?.cityId || '';
  const films = useQuery(filmsQuery(sid, city));
  const cinemas = useQuery(cinemasQuery(sid, city, filmId));
  const shows = useQuery(showsQuery(sid, cinemaId, filmId));
  const seats = useQuery(seatsQuery(sid, show?.showId ?? ''));
  const lock = useLockSeats();
  const pay = useMovieYePay();
  const source = sourceName(site?.supplyConfig ?? [], MOVIE_SOURCE)?.name ?? '电影';
  const film = films.data?.find((f) => f.filmId === filmId);
  const cinema = cinemas.data?.find((c) => c.cinemaId === cinemaId);
  const step = order ? 4 : show ? 3 : cinemaId ? 2 : filmId ? 1 : 0;

  const rows = useMemo(() => {
    const byRow = new Map<number, MovieSeat[]>();
    for (const s of seats.data?.seats ?? []) byRow.set(s.row, [...(byRow.get(s.row) ?? []), s]);
    return [...byRow.entries()];
  }, [seats.data]);

  const back = (to: number) => {
    if (to < 1) setFilmId('');
    if (to < 2) setCinemaId('');
    if (to < 3) setShow(null);
    setChosen([]);
  };
  const toggle = (seat: MovieSeat) => {
    if (seat.status !== 'available') return;
    if (chosen.includes(seat.seatId)) setChosen(chosen.filter((s) => s !== seat.seatId));
    else if (chosen.length >= MAX_SEATS) void message.warning(`每单最多选择 ${MAX_SEATS} 个座位`);
    else setChosen([...chosen, seat.seatId]);
  };
  const lockSeats = async () => {
    if (!show) return;
    try {
      setOrder(await lock.mutateAsync({ showId: show.showId, seatIds: chosen, requestId }));
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '锁座失败');
      setChosen([]);
      setRequestId(newRequestId());
    }
  };
  const payWithPoints = async () => {
    if (!order) return;
    try {
      await pay.mutateAsync(order.orderNo);
      void message.success('支付成功，正在出票');
      navigate(link(`/orderDetail?orderNo=${encodeURIComponent(order.orderNo)}`));
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '支付失败');
    }
  };

  if (cities.isError)
    return <Result status="warning" title="影院服务暂不可用" subTitle={cities.error.message} />;

  return (
    <div className="movie" data-testid="movie-flow">
      <section className="page-card">
        <div className="movie__head">
          <h2 className="page-card__title">
            电影票 <Tag color="volcano">{source}</Tag>
          </h2>
          {cities.data ? (
            <Segmented
              value={city}
              options={cities.data.map((c) => ({ label: c.cityName, value: c.cityId }))}
              onChange={(v) => {
                setCityId(String(v));
                back(0);
              }}
            />
          ) : (
            <Skeleton.Button active />
          )}
        </div>
        <Steps
          size="small"
          current={step}
          items={STEPS.map((title, i) => ({
            title,
            ...(i < step && !order ? { onClick: () => back(i), style: { cursor: 'pointer' } } : {}),
          }))}
        />
        {(film || cinema || show) && (
          <p className="movie__chosen" data-testid="movie-chosen">
            {[film?.filmName, cinema?.cinemaName, show && `${showTime(show.startTime)} ${show.hall}`]
              .filter(Boolean)
              .join(' · ')}
          </p>
        )}
      </section>

      {step === 0 && (
        <section className="page-card">
          {films.isPending ? (
            <Loading />
          ) : (films.data ?? []).length === 0 ? (
            <Empty description="该城市暂无热映影片" />
          ) : (
            <div className="movie__films">
              {films.data?.map((f) => (
                <button
                  type="button"
                  key={f.filmId}
                  className="movie__film"
                  onClick={() => setFilmId(f.filmId)}
                >
                  <span className="movie__poster" aria-hidden>
                    {f.filmName.slice(0, 2)}
                  </span>
                  <b>{f.filmName}</b>
                  <small>
                    {f.filmType} · {f.duration} 分钟 · <em>{f.score} 分</em>
                  </small>
                </button>
              ))}
            </div>
          )}
        </section>
      )}

      {step === 1 && (
        <section className="page-card">
          {cinemas.isPending ? (
            <Loading />
          ) : (cinemas.data ?? []).length === 0 ? (
            <Empty description="暂无放映该影片的影院" />
          ) : (
            <ul className="movie__list">
              {cinemas.data?.map((c) => (
                <li key={c.cinemaId}>
                  <div>
                    <b>{c.cinemaName}</b>
                    <small>{c.address}</small>
                  </div>
                  <Button onClick={() => setCinemaId(c.cinemaId)}>选择影院</Button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      {step === 2 && (
        <section className="page-card">
          {shows.isPending ? (
            <Loading />
          ) : (shows.data ?? []).length === 0 ? (
            <Empty description="今明两天暂无场次" />
          ) : (
            <div className="movie__shows">
              {shows.data?.map((s) => (
                <button type="button" key={s.showId} className="movie__show" onClick={() => setShow(s)}>
                  <b>{showTime(s.startTime)}</b>
                  <span>
                    {s.hall} · {s.language}
                  </span>
                  <em>{formatMoney(s.price)}</em>
                </button>
              ))}
            </div>
          )}
        </section>
      )}

      {step === 3 && show && (
        <section className="page-card">
          {seats.isPending ? (
            <Loading rows={8} />
          ) : seats.isError ? (
            <Result status="warning" title="座位图加载失败" subTitle={seats.error.message} />
          ) : (
            <div className="movie__seatmap">
              <div className="movie__screen">银幕</div>
              <fieldset className="movie__seats" aria-label="座位图">
                {rows.map(([row, list]) => (
                  <div className="movie__row" key={row}>
                    <span className="movie__rowno">{row}</span>
                    {list.map((s) => (
                      <button
                        type="button"
                        key={s.seatId}
                        aria-label={`${s.name}${s.status === 'available' ? '' : '（不可选）'}`}
                        aria-pressed={chosen.includes(s.seatId)}
                        disabled={s.status !== 'available'}
                        className={`movie__seat movie__seat--${chosen.includes(s.seatId) ? 'chosen' : s.status}`}
                        data-testid={`seat-${s.seatId}`}
                        onClick={() => toggle(s)}
                      />
                    ))}
                  </div>
                ))}
              </fieldset>
              <div className="movie__legend">
                <span className="movie__seat movie__seat--available" /> 可选
                <span className="movie__seat movie__seat--chosen" /> 已选
                <span className="movie__seat movie__seat--sold" /> 已售
                <span className="movie__seat movie__seat--locked" /> 锁定中
              </div>
              <div className="movie__bar">
                <span>
                  已选：
                  {chosen.length === 0
                    ? '请点击座位选择（最多 4 个）'
                    : chosen.map((id) => seats.data?.seats.find((s) => s.seatId === id)?.name).join('、')}
                </span>
                <strong>{formatMoney(show.price * chosen.length)}</strong>
                <Button
                  type="primary"
                  disabled={chosen.length === 0}
                  loading={lock.isPending}
                  onClick={lockSeats}
                  data-testid="lock-seats"
                >
                  锁座并下单
                </Button>
              </div>
            </div>
          )}
        </section>
      )}

      {order && (
        <section className="page-card movie__pay" data-testid="movie-pay">
          <Result
            status="success"
            title="锁座成功，请尽快支付"
            subTitle={`订单号 ${order.orderNo} · 请在 ${chinaTime(order.expireTime, 'HH:mm:ss')} 前完成支付，超时座位将被释放`}
            extra={[
              <Button
                type="primary"
                key="ye"
                loading={pay.isPending}
                onClick={payWithPoints}
                data-testid="movie-pay-ye"
              >
                积分支付 {formatMoney(order.payAmount)}
              </Button>,
              <Link key="other" to={link(`/selectPayWay?orderNo=${encodeURIComponent(order.orderNo)}`)}>
                <Button>其他支付方式</Button>
              </Link>,
            ]}
          />
        </section>
      )}
    </div>
  );
}
