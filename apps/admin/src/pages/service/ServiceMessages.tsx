import { type ActionType, ProTable } from '@ant-design/pro-components';
import { type AdminServiceMessage, adminServiceApi as api } from '@sitemall/contract';
import { App, Empty, Tag, Typography } from 'antd';
import { useRef } from 'react';
import { call, pageOf } from '../../api';
import { searchForm } from '../../columns';
import { time } from '../../format';
import { useSession } from '../../session';
import { TextAction } from '../TextAction';

interface Filters {
  keyword?: string;
  replied?: 'yes' | 'no';
  siteId?: number;
  current?: number;
}

/** Messages shoppers left through the mall customer service form, answered here once. */
export function ServiceMessagesPage() {
  const { siteId, can } = useSession();
  const { message } = App.useApp();
  const action = useRef<ActionType>(null);
  const reply = async (m: AdminServiceMessage, text: string) => {
    try {
      await call(api.reply, { siteId: m.siteId, messageId: m.messageId, reply: text });
      message.success('已回复');
    } catch (e) {
      message.error((e as Error).message);
      throw e;
    } finally {
      action.current?.reload();
    }
  };
  return (
    <ProTable<AdminServiceMessage, Filters>
      headerTitle="客服留言"
      rowKey="messageId"
      actionRef={action}
      params={{ siteId }}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: <Empty description="没有符合条件的留言" /> }}
      form={searchForm({ initialValues: { replied: 'no' } })}
      request={(p) =>
        pageOf(api.messages, {
          siteId: p.siteId,
          keyword: p.keyword?.trim() || undefined,
          replied: p.replied === undefined ? undefined : p.replied === 'yes',
          pageNum: p.current,
        })
      }
      expandable={{
        expandedRowRender: (m) => (
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
            <strong>留言：</strong>
            {m.content}
            {m.repliedAt ? (
              <>
                <br />
                <strong>
                  回复（{m.repliedBy}，{time(m.repliedAt)}）：
                </strong>
                {m.reply}
              </>
            ) : null}
          </Typography.Paragraph>
        ),
      }}
      columns={[
        { title: '关键字', dataIndex: 'keyword', hideInTable: true, tooltip: '称呼、手机号或留言内容' },
        {
          title: '回复状态',
          dataIndex: 'replied',
          hideInTable: true,
          valueEnum: { no: { text: '待回复' }, yes: { text: '已回复' } },
        },
        { title: '编号', dataIndex: 'messageId', search: false, width: 70 },
        { title: '站点', dataIndex: 'siteId', search: false, width: 70 },
        { title: '类型', dataIndex: 'topic', search: false, width: 100 },
        { title: '称呼', dataIndex: 'name', search: false, width: 100 },
        { title: '手机号', dataIndex: 'phone', search: false, width: 120 },
        { title: '留言内容', dataIndex: 'content', search: false, ellipsis: true },
        {
          title: '状态',
          dataIndex: 'repliedAt',
          search: false,
          width: 90,
          render: (_, m) =>
            m.repliedAt ? <Tag color="green">已回复</Tag> : <Tag color="orange">待回复</Tag>,
        },
        { title: '留言时间', dataIndex: 'createdAt', search: false, render: (_, m) => time(m.createdAt) },
        {
          title: '操作',
          valueType: 'option',
          render: (_, m) =>
            !m.repliedAt && can('aftersales:manage', m.siteId)
              ? [
                  <TextAction
                    key="reply"
                    label="回复"
                    title={`回复 ${m.name} 的留言`}
                    field="回复内容"
                    link
                    onSubmit={(text) => reply(m, text)}
                  />,
                ]
              : [],
        },
      ]}
    />
  );
}
