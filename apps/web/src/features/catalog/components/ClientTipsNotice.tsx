import { NotificationOutlined } from '@ant-design/icons';
import type { ClientTips } from '@sitemall/contract';
import { Alert, Button, Modal } from 'antd';
import { useState } from 'react';
import { useSite } from '../../../site/SiteProvider.tsx';
import { SESSION_KEYS, session } from '../../../site/storage.ts';
import { useClientTips } from '../api.ts';
import { LazySafeHtml } from './LazySafeHtml.tsx';

type Notice = NonNullable<ClientTips['notice']>;

const isDismissed = (notice: Notice) => session.get<Notice>(SESSION_KEYS.pcNotice)?.id === notice.id;

/**
 * The PC notice (client tips, spec section 7) as a bar that does not block the page; its full
 * text opens in a dialog. Closing it stores the notice object in session storage, so it stays
 * closed for the session; going to a login page clears the stored object (spec section 2), so
 * the notice shows again after logging in.
 */
export function ClientTipsNotice() {
  const { siteId } = useSite();
  const tips = useClientTips(siteId ?? '');
  const [, setVersion] = useState(0);
  const [isOpen, setOpen] = useState(false);
  const notice = tips.data?.notice;
  if (!notice || isDismissed(notice)) return null;

  const dismiss = () => {
    session.set(SESSION_KEYS.pcNotice, notice);
    setOpen(false);
    setVersion((v) => v + 1);
  };

  return (
    <>
      <Alert
        className="client-tips"
        data-testid="client-tips"
        type="warning"
        showIcon
        icon={<NotificationOutlined />}
        banner
        closable
        onClose={dismiss}
        message={
          <span>
            <b>{notice.title}</b>
            <Button type="link" size="small" onClick={() => setOpen(true)}>
              查看详情
            </Button>
          </span>
        }
      />
      <Modal
        open={isOpen}
        title={notice.title}
        onCancel={() => setOpen(false)}
        footer={
          <Button type="primary" onClick={dismiss}>
            我知道了
          </Button>
        }
        width={560}
      >
        <LazySafeHtml className="client-tips__content rich-text" html={notice.content} />
      </Modal>
    </>
  );
}
