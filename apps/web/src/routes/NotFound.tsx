import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { useSiteLink } from '../site/links.ts';

export function Component() {
  const link = useSiteLink();
  return (
    <Result
      className="page-card"
      status="404"
      title="页面不存在"
      subTitle="抱歉，您访问的页面不存在或已下线。"
      extra={
        <Link to={link('/home')}>
          <Button type="primary">返回首页</Button>
        </Link>
      }
    />
  );
}
