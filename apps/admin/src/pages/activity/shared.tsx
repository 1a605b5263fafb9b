import { ModalForm, type ProColumns, ProFormTextArea } from '@ant-design/pro-components';
import type { Timing } from '@sitemall/contract';
import { Button, Tag } from 'antd';
import dayjs from 'dayjs';
import { chinaNow } from '../../format';
import { useWrite } from '../write';

const WALL_CLOCK = 'YYYY-MM-DD HH:mm:ss';

/** A new activity's window until the operator picks one: from now for 30 days (China time). */
export const defaultWindow = (): [string, string] => [
  chinaNow().format(WALL_CLOCK),
  chinaNow().add(30, 'day').format(WALL_CLOCK),
];

/** The window picked in a form as an activity's body takes it: start and end on the wall clock. */
export const windowOf = ([start, end]: [string, string]) => ({
  startAt: dayjs(start).format(WALL_CLOCK),
  endAt: dayjs(end).format(WALL_CLOCK),
});

const TIMING = {
  '-1': { color: 'blue', text: '未开始' },
  '0': { color: 'green', text: '进行中' },
  '1': { color: 'default', text: '已结束' },
} as const;

/** An activity's state from the server's timing (-1 not started, 0 running, 1 ended). */
export function TimingTag({ timing }: { timing: Timing }) {
  const shown = TIMING[String(timing.status) as keyof typeof TIMING] ?? TIMING['1'];
  return <Tag color={shown.color}>{shown.text}</Tag>;
}

/** The state and the window (start over end) columns of an activity list. */
export function timingColumns<T extends { timing: Timing; startAt: string; endAt: string }>(
  windowTitle: string,
): ProColumns<T>[] {
  return [
    {
      title: '状态',
      dataIndex: 'timing',
      width: 80,
      render: (_, a) => <TimingTag timing={a.timing} />,
    },
    {
      title: windowTitle,
      dataIndex: 'startAt',
      width: 190,
      render: (_, a) => (
        <span style={{ fontSize: 12 }}>
          {a.startAt}
          <br />
          {a.endAt}
        </span>
      ),
    },
  ];
}

/** Ends an activity now; the server refuses without a reason, the form asks for one first. */
export function EndButton({ name, onEnd }: { name: string; onEnd: (reason: string) => Promise<unknown> }) {
  const write = useWrite();
  return (
    <ModalForm<{ reason: string }>
      title={`立即结束：${name}`}
      width={420}
      trigger={
        <Button type="link" danger>
          结束
        </Button>
      }
      modalProps={{ destroyOnClose: true }}
      onFinish={({ reason }) => write(() => onEnd(reason), '活动已结束')}
    >
      <ProFormTextArea
        name="reason"
        label="结束原因"
        rules={[{ required: true, message: '请填写操作原因' }]}
        fieldProps={{ maxLength: 200 }}
      />
    </ModalForm>
  );
}
