import {
  CustomerServiceOutlined,
  MailOutlined,
  MessageOutlined,
  PhoneOutlined,
  WechatOutlined,
} from '@ant-design/icons';
import { chinaTime, SERVICE_MESSAGE_TOPICS } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Col, Form, Input, List, Pagination, Result, Row, Skeleton, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { keys } from '../../../api/keys.ts';
import { resolveHotline } from '../../../site/api.ts';
import { formatHotline } from '../../../site/phone.ts';
import { useSite } from '../../../site/SiteProvider.tsx';
import { getToken } from '../../../site/storage.ts';
import { FormSelect } from '../../../ui/FormSelect.tsx';
import { lengthRules } from '../../../ui/rules.ts';
import {
  type ServiceMessageInput,
  useMyServiceMessages,
  useServiceChannels,
  useServiceMessage,
} from '../api.ts';
import { ContactPhoneItem } from './ContactPhoneItem.tsx';
import { EmptyState, LoadError } from './states.tsx';

const CHANNEL_ICON: Record<string, ReactNode> = {
  hotline: <PhoneOutlined />,
  spareHotline: <PhoneOutlined />,
  email: <MailOutlined />,
  online: <CustomerServiceOutlined />,
  wechat: <WechatOutlined />,
};

const isPhoneChannel = (type: string) => type === 'hotline' || type === 'spareHotline';

/** A channel's value as shown: hotlines stored encrypted are decrypted like the site hotline. */
function ChannelValue({ type, value }: { type: string; value: string }) {
  const shown = useQuery({
    queryKey: keys.catalog.serviceChannel(value),
    queryFn: () => resolveHotline(value),
    enabled: isPhoneChannel(type),
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (!isPhoneChannel(type)) {
    if (type === 'email') return <a href={`mailto:${value}`}>{value}</a>;
    if (/^https?:\/\//i.test(value))
      return (
        <a href={value} target="_blank" rel="noopener noreferrer">
          进入在线客服
        </a>
      );
    return <span>{value}</span>;
  }
  if (shown.isPending) return <Skeleton.Input size="small" active />;
  return <span className="service__phone">{shown.data ? formatHotline(shown.data) : '—'}</span>;
}

function Channels() {
  const { siteId } = useSite();
  const channels = useServiceChannels(siteId ?? '');
  if (channels.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (channels.isError) return <LoadError error={channels.error} onRetry={() => void channels.refetch()} />;
  if (channels.data.list.length === 0) return <EmptyState description="暂无客服渠道，请通过留言联系我们" />;
  return (
    <ul className="service__channels" data-testid="service-channels">
      {channels.data.list.map((channel) => (
        <li key={`${channel.type}-${channel.name}`} className="service__channel">
          <span className="service__icon">{CHANNEL_ICON[channel.type] ?? <MessageOutlined />}</span>
          <div>
            <div className="service__name">{channel.name}</div>
            <ChannelValue type={channel.type} value={channel.value} />
            {channel.hours && <div className="service__hours">服务时间：{channel.hours}</div>}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The logged-in member's messages, each with customer service's reply (shown as text). */
function MyMessages() {
  const { siteId } = useSite();
  const [pageNum, setPageNum] = useState(1);
  const messages = useMyServiceMessages(siteId ?? '', pageNum);
  if (!getToken()) return null;
  const body = () => {
    if (messages.isPending) return <Skeleton active paragraph={{ rows: 3 }} />;
    if (messages.isError) return <LoadError error={messages.error} onRetry={() => void messages.refetch()} />;
    if (messages.data.list.length === 0) return <EmptyState description="您还没有留言" />;
    return (
      <>
        <List
          itemLayout="vertical"
          dataSource={messages.data.list}
          renderItem={(m) => (
            <List.Item key={m.messageId} className="service__message" data-testid="my-service-message">
              <div className="service__message-head">
                <Tag>{m.topic}</Tag>
                <span className="service__hours">{chinaTime(m.createdAt, 'YYYY-MM-DD HH:mm')}</span>
                {m.repliedAt ? <Tag color="green">已回复</Tag> : <Tag color="orange">待回复</Tag>}
              </div>
              <p className="service__message-content">{m.content}</p>
              {m.repliedAt ? (
                <div className="service__reply" data-testid="service-reply">
                  <strong>客服回复：</strong>
                  {m.reply}
                  <div className="service__hours">{chinaTime(m.repliedAt, 'YYYY-MM-DD HH:mm')}</div>
                </div>
              ) : (
                <div className="service__hours">客服将在工作时间内尽快回复您</div>
              )}
            </List.Item>
          )}
        />
        {messages.data.total > messages.data.pageSize && (
          <Pagination
            size="small"
            current={pageNum}
            pageSize={messages.data.pageSize}
            total={messages.data.total}
            onChange={setPageNum}
            showSizeChanger={false}
          />
        )}
      </>
    );
  };
  return (
    <Card title="我的留言" style={{ marginTop: 16 }} data-testid="my-service-messages">
      {body()}
    </Card>
  );
}

/** /platformCustomerService: the site's service channels and a message form the server keeps. */
export function CustomerService() {
  const { siteId, site } = useSite();
  const { message } = App.useApp();
  const [form] = Form.useForm<ServiceMessageInput>();
  const send = useServiceMessage(siteId ?? '');
  const [sentId, setSentId] = useState<number | null>(null);

  const submit = async (values: ServiceMessageInput) => {
    try {
      const answer = await send.mutateAsync({ ...values, content: values.content.trim() });
      setSentId(answer.messageId);
      form.resetFields();
    } catch (error) {
      void message.error((error as Error).message);
    }
  };

  return (
    <div className="service">
      <div className="service__banner">
        <CustomerServiceOutlined />
        <div>
          <h1>{site?.siteName} 商城客服</h1>
          <p>商品咨询、订单、售后问题，我们都在这里为您解答。</p>
        </div>
      </div>
      <Row gutter={16}>
        <Col span={9}>
          <Card title="联系我们">
            <Channels />
          </Card>
        </Col>
        <Col span={15}>
          <Card title="在线留言">
            {sentId !== null ? (
              <div data-testid="service-sent">
                <Result
                  status="success"
                  title="留言已提交"
                  subTitle={`留言编号 ${sentId}，客服将在工作时间内尽快与您联系。`}
                  extra={<Button onClick={() => setSentId(null)}>继续留言</Button>}
                />
              </div>
            ) : (
              <Form<ServiceMessageInput>
                form={form}
                labelCol={{ span: 4 }}
                wrapperCol={{ span: 19 }}
                onFinish={(values) => void submit(values)}
                initialValues={{ topic: SERVICE_MESSAGE_TOPICS[0] }}
              >
                <Form.Item
                  label="问题类型"
                  name="topic"
                  rules={[{ required: true, message: '请选择问题类型' }]}
                >
                  <FormSelect options={SERVICE_MESSAGE_TOPICS.map((t) => ({ value: t, label: t }))} />
                </Form.Item>
                <Form.Item
                  label="您的称呼"
                  name="name"
                  rules={[{ required: true, whitespace: true, message: '请输入您的称呼' }, { max: 20 }]}
                >
                  <Input maxLength={20} />
                </Form.Item>
                <ContactPhoneItem label="手机号码" />
                <Form.Item
                  label="留言内容"
                  name="content"
                  rules={lengthRules('留言内容', { min: 5, max: 500 })}
                >
                  <Input.TextArea
                    rows={5}
                    maxLength={500}
                    showCount
                    placeholder="请详细描述您的问题，如订单号、商品名称等"
                  />
                </Form.Item>
                <Form.Item wrapperCol={{ offset: 4, span: 19 }}>
                  <Button type="primary" htmlType="submit" loading={send.isPending}>
                    提交留言
                  </Button>
                </Form.Item>
              </Form>
            )}
          </Card>
        </Col>
      </Row>
      <MyMessages />
    </div>
  );
}
