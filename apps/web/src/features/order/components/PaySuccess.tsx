import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';

/** /success: the order is placed and paid; links to the orders and home. */
export function PaySuccess({ orderNo }: { orderNo: string | null }) {
  const link = useSiteLink();
  return (
    <section className="page-card" data-testid="pay-success">
      <Result
        status="success"
        title="支付成功，订单已提交！"
        subTitle={
          orderNo
            ? `订单号 ${orderNo}。我们会尽快为您安排发货，您可以在“我的订单”中查看订单进度。`
            : '我们会尽快为您安排发货，您可以在“我的订单”中查看订单进度。'
        }
        extra={[
          orderNo && (
            <Link key="order" to={link(`/orderDetail?orderNo=${encodeURIComponent(orderNo)}`)}>
              <Button type="primary">查看订单</Button>
            </Link>
          ),
          <Link key="orders" to={link('/myOrder')}>
            <Button type={orderNo ? 'default' : 'primary'}>我的订单</Button>
          </Link>,
          <Link key="home" to={link('/home')}>
            <Button>返回首页</Button>
          </Link>,
        ]}
      />
    </section>
  );
}
