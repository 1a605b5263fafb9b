import { CODE, chinaTime, DEFAULT_ACTIVITY_CODE, type DrawResult, MSG, type Prize } from '@sitemall/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, Result, Skeleton, Table } from 'antd';
import { useRef, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { chanceQuery, draw, giftsQuery, ruleQuery, share } from './api.ts';
import './activity.css';
import { keys } from '../../api/keys.ts';

/** How long the wheel turns before the result is shown (the CSS transition's length). */
const SPIN_MS = 3_000;
const COLORS = ['#fff1e6', '#ffd8bf', '#fff7e6', '#ffe7ba', '#fcffe6', '#f4ffb8'];

/** The rotation (degrees) that brings a slot under the pointer at the top, after whole turns. */
export function landingAngle(current: number, index: number, slots: number): number {
  const slot = 360 / slots;
  const target = 360 - (index + 0.5) * slot;
  const base = current - (current % 360);
  return base + 5 * 360 + target;
}

function Wheel({ prizes, angle }: { prizes: Prize[]; angle: number }) {
  const slot = 360 / Math.max(prizes.length, 1);
  const gradient = prizes
    .map((_, i) => `${COLORS[i % COLORS.length]} ${i * slot}deg ${(i + 1) * slot}deg`)
    .join(', ');
  return (
    <div className="wheel" role="img" aria-label={`转盘：${prizes.map((p) => p.name).join('、')}`}>
      <div className="wheel__pointer" aria-hidden />
      <div
        className="wheel__disc"
        style={{ background: `conic-gradient(${gradient})`, transform: `rotate(${angle}deg)` }}
        aria-hidden
      >
        {prizes.map((p, i) => (
          <span key={p.id} className="wheel__label" style={{ transform: `rotate(${(i + 0.5) * slot}deg)` }}>
            <span>{p.name}</span>
          </span>
        ))}
      </div>
    </div>
  );
}

/** /lottery (幸运大转盘): the wheel spins to the server's result; chances, rules and my prizes. */
export function Turntable({ code = DEFAULT_ACTIVITY_CODE }: { code?: string }) {
  const { siteId } = useSite();
  const sid = siteId ?? '';
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const rule = useQuery({ ...ruleQuery(sid, code), enabled: !!siteId });
  const chances = useQuery({ ...chanceQuery(sid, code), enabled: !!siteId });
  const gifts = useQuery({ ...giftsQuery(sid), enabled: !!siteId });
  const [angle, setAngle] = useState(0);
  const [spinning, setSpinning] = useState(false);
  const [result, setResult] = useState<DrawResult | null>(null);
  const clicks = useRef(0);

  if (rule.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (rule.isError) return <Result status="warning" title="活动加载失败" subTitle={rule.error.message} />;
  // Spec sections 6 and 8: an uninvited member is told so.
  if (chances.error instanceof ApiError && chances.error.message === MSG.invitedOnly)
    return (
      <section className="page-card" data-testid="lottery-invited-only">
        <Result status="403" title={MSG.invitedOnly} subTitle={rule.data.name} />
      </section>
    );
  // Any other refusal of the chances is said, not shown as a spent turntable.
  if (chances.isError)
    return (
      <section className="page-card" data-testid="lottery-chances-failed">
        <Result
          status="warning"
          title="抽奖次数加载失败"
          subTitle={chances.error.message}
          extra={<Button onClick={() => void chances.refetch()}>重新加载</Button>}
        />
      </section>
    );

  const refresh = () => void queryClient.invalidateQueries({ queryKey: keys.activity.all(sid) });
  const spin = async () => {
    if (spinning) return;
    setSpinning(true);
    setResult(null);
    clicks.current += 1;
    try {
      const answer = await draw(sid, code, `${Date.now().toString(36)}-${clicks.current}-${code}`);
      const index = Math.max(
        0,
        rule.data.prizes.findIndex((p) => p.id === answer.prize.id),
      );
      setAngle((a) => landingAngle(a, index, rule.data.prizes.length));
      window.setTimeout(() => {
        setResult(answer);
        setSpinning(false);
        refresh();
      }, SPIN_MS);
    } catch (error) {
      setSpinning(false);
      if (error instanceof ApiError && error.code === CODE.failure && error.message === MSG.invitedOnly)
        modal.warning({ title: '温馨提示', content: MSG.invitedOnly, okText: '知道了' });
      else void message.error(error instanceof Error ? error.message : '抽奖失败');
      refresh();
    }
  };
  const onShare = async () => {
    try {
      await share(sid, code);
      void message.success('分享成功');
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '分享失败');
    }
    refresh();
  };

  const left = chances.data?.left ?? 0;
  return (
    <section className="page-card lottery" data-testid="lottery">
      <h2 className="page-card__title">{rule.data.name}</h2>
      <div className="lottery__body">
        <div className="lottery__wheel">
          <Wheel prizes={rule.data.prizes} angle={angle} />
          <Button
            type="primary"
            size="large"
            danger
            onClick={() => void spin()}
            loading={spinning || chances.isPending}
            disabled={!chances.data || left <= 0}
            data-testid="lottery-spin"
          >
            {chances.isPending || left > 0 ? '开始抽奖' : '次数已用完'}
          </Button>
          <p data-testid="lottery-left">剩余抽奖次数：{left}</p>
          {result && (
            <output className={result.won ? 'lottery__won' : 'lottery__lost'} data-testid="lottery-result">
              {result.msg}
            </output>
          )}
        </div>
        <div className="lottery__side">
          <h3>活动规则</h3>
          {/* Operator-written rules, shown as text. */}
          <p className="lottery__rule">{rule.data.ruleHtml.replace(/<[^>]+>/g, ' ').trim()}</p>
          <p>每次消耗：{(rule.data.costPoints / 100).toFixed(2)} 积分</p>
          <Button onClick={() => void onShare()} disabled={chances.data?.shared} data-testid="lottery-share">
            {chances.data?.shared ? '今日已分享' : `分享得 ${rule.data.shareBonus} 次机会`}
          </Button>
        </div>
      </div>
      <h3 className="lottery__gifts-title">我的奖品</h3>
      <Table
        data-testid="lottery-gifts"
        rowKey="id"
        size="small"
        pagination={false}
        loading={gifts.isPending}
        dataSource={gifts.data ?? []}
        locale={{ emptyText: <Empty description="暂无奖品" /> }}
        columns={[
          { title: '奖品', dataIndex: 'prizeName' },
          { title: '活动', dataIndex: 'activityName' },
          { title: '状态', dataIndex: 'statusName' },
          {
            title: '时间',
            dataIndex: 'createTime',
            render: (t: string) => chinaTime(t),
          },
        ]}
      />
    </section>
  );
}
