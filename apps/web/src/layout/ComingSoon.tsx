import { Empty } from 'antd';
import type { ReactNode } from 'react';

/** An honest placeholder for pages that a later issue fills: says so, shows nothing made up. */
export function ComingSoon({
  title,
  notice,
  children,
}: {
  title: string;
  notice: string;
  children?: ReactNode;
}) {
  return (
    <section className="page-card">
      <h2 className="page-card__title">{title}</h2>
      <Empty className="page-card__empty" description={notice}>
        {children}
      </Empty>
    </section>
  );
}
