import {
  CreditCardOutlined,
  CrownOutlined,
  CustomerServiceOutlined,
  EnvironmentOutlined,
  FileTextOutlined,
  GiftOutlined,
  LockOutlined,
  MobileOutlined,
  ProfileOutlined,
  RightOutlined,
  ScissorOutlined,
  TagsOutlined,
  TeamOutlined,
  UserOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { chinaTime } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Avatar, Card, Descriptions, Skeleton } from 'antd';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { maskPhone } from '../../site/phone.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { fetchPersonalInfo } from './api.ts';
import { ChangePasswordDialog } from './ChangePasswordDialog.tsx';
import './identity.css';
import { keys } from '../../api/keys.ts';

function Entry({ icon, title, hint }: { icon: ReactNode; title: string; hint: string }) {
  return (
    <>
      <span className="pc-entry__icon">{icon}</span>
      <span className="pc-entry__text">
        <span className="pc-entry__title">{title}</span>
        <span className="pc-entry__hint">{hint}</span>
      </span>
      <RightOutlined style={{ color: 'rgba(0,0,0,0.25)' }} />
    </>
  );
}

/**
 * The personal center: the member as the server knows them (phone, username, site) and the
 * ways on to orders, addresses, bills and the password. `extra` is drawn at the right of the
 * profile bar (the route puts the points balance there).
 */
export function PersonalCenter({ extra }: { extra?: ReactNode }) {
  const { site, siteId } = useSite();
  const link = useSiteLink();
  const [changing, setChanging] = useState(false);
  // Without a token the call answers 401 and the request layer takes the visitor to login
  // (and back here afterwards), so the query runs either way.
  // The key holds no token: a token dropped by a 401/416 must not start a second call.
  // Logging in invalidates and exit removes the 'identity' queries.
  const info = useQuery({
    queryKey: keys.personalInfo(siteId ?? ''),
    queryFn: () => fetchPersonalInfo(siteId),
    retry: false,
  });
  const member = info.data;
  const shownName = member?.phone ? maskPhone(member.phone) : member?.username || '会员';

  return (
    <section className="personal-center" data-testid="personal-center">
      <div className="pc-profile">
        <Avatar className="pc-profile__avatar" size={72} icon={<UserOutlined />} />
        <div>
          {info.isPending ? (
            <Skeleton.Input active size="small" />
          ) : (
            <h2 className="pc-profile__name" data-testid="pc-name">
              {shownName}
            </h2>
          )}
          <div className="pc-profile__site">欢迎来到{site?.siteName}</div>
        </div>
        {extra}
      </div>
      {info.isError && <Alert style={{ marginTop: 20 }} type="error" showIcon message={info.error.message} />}
      <div className="pc-grid">
        <Card title="会员信息" variant="outlined">
          {member ? (
            <Descriptions
              column={1}
              size="middle"
              colon={false}
              labelStyle={{ width: 88, color: 'rgba(0,0,0,0.6)' }}
            >
              <Descriptions.Item label="手机号">
                <span data-testid="pc-phone">{member.phone ? maskPhone(member.phone) : '未绑定'}</span>
              </Descriptions.Item>
              <Descriptions.Item label="账号">
                <span data-testid="pc-username">{member.username || '未设置'}</span>
              </Descriptions.Item>
              <Descriptions.Item label="所属商城">
                <span data-testid="pc-site">{site?.siteName}</span>
              </Descriptions.Item>
              <Descriptions.Item label="登录密码">
                {member.hasPassword ? '已设置' : '未设置'}
              </Descriptions.Item>
              <Descriptions.Item label="注册时间">
                {chinaTime(member.createdAt, 'YYYY-MM-DD')}
              </Descriptions.Item>
            </Descriptions>
          ) : (
            <Skeleton active paragraph={{ rows: 4 }} title={false} />
          )}
        </Card>
        <Card title="我的服务" variant="outlined">
          <div className="pc-entries">
            <Link className="pc-entry" to={link('/myOrder')}>
              <Entry icon={<ProfileOutlined />} title="我的订单" hint="查看订单与物流" />
            </Link>
            <Link className="pc-entry" to={link('/afterSaleList')}>
              <Entry icon={<CustomerServiceOutlined />} title="我的售后" hint="退货、换货与退款进度" />
            </Link>
            <Link className="pc-entry" to={link('/myAddress')}>
              <Entry icon={<EnvironmentOutlined />} title="收货地址" hint="管理收货地址" />
            </Link>
            <Link className="pc-entry" to={link('/myVoucher')}>
              <Entry icon={<GiftOutlined />} title="我的优惠券" hint="未使用、已使用、已过期" />
            </Link>
            <Link className="pc-entry" to={link('/myCards')}>
              <Entry icon={<CreditCardOutlined />} title="我的卡包" hint="礼品卡余额与明细" />
            </Link>
            <Link className="pc-entry" to={link('/myGroupBuy')}>
              <Entry icon={<TeamOutlined />} title="我的拼团" hint="拼团进度与成团结果" />
            </Link>
            <Link className="pc-entry" to={link('/voucherCenter')}>
              <Entry icon={<TagsOutlined />} title="领券中心" hint="领取可用优惠券" />
            </Link>
            <Link className="pc-entry" to={link('/myBenefits')}>
              <Entry icon={<CrownOutlined />} title="我的权益" hint="领取与查看会员权益" />
            </Link>
            <Link className="pc-entry" to={link('/bargain')}>
              <Entry icon={<ScissorOutlined />} title="好友砍价" hint="邀请好友帮砍，低价购买" />
            </Link>
            <Link className="pc-entry" to={link('/movie')}>
              <Entry icon={<VideoCameraOutlined />} title="电影票" hint="在线选座，支付后出票" />
            </Link>
            <Link className="pc-entry" to={link('/topup')}>
              <Entry icon={<MobileOutlined />} title="话费充值" hint="支付后直充到账" />
            </Link>
            <Link className="pc-entry" to={link('/billDetails')}>
              <Entry icon={<FileTextOutlined />} title="账单明细" hint={`${site?.cashUnit ?? ''}收支记录`} />
            </Link>
            <button type="button" className="pc-entry" onClick={() => setChanging(true)}>
              <Entry icon={<LockOutlined />} title="修改登录密码" hint="定期修改更安全" />
            </button>
          </div>
        </Card>
      </div>
      <ChangePasswordDialog open={changing} onClose={() => setChanging(false)} />
    </section>
  );
}
