import { merchantApplication } from '../../modules/merchant/merchant.tables';
import type { Db } from '../client';

/**
 * What the console's merchant and customer-service screens start with on a fresh database:
 * applications waiting for review on 719 and 10110 (no licence picture: demo rows are not
 * uploads) and messages left by shoppers.
 */
const DEMO_APPLICATIONS = [
  {
    siteId: 719,
    phone: '13700000001',
    contactName: '王芳',
    companyName: '杭州西湖茶业有限公司',
    shopName: '西湖龙井馆',
    mainCategory: '茶叶冲饮',
  },
  {
    siteId: 719,
    phone: '13700000002',
    contactName: '陈刚',
    companyName: '宁波海鲜供应链有限公司',
    shopName: '甬城海味',
    mainCategory: '生鲜水产',
  },
  {
    siteId: 10110,
    phone: '13700000003',
    contactName: '赵敏',
    companyName: '苏州丝绸文化有限公司',
    shopName: '姑苏丝语',
    mainCategory: '服饰配件',
  },
];

export async function seedServiceDesk(db: Db): Promise<void> {
  await db.insert(merchantApplication).values(
    DEMO_APPLICATIONS.map((a, i) => ({
      ...a,
      creditCode: `9133010${i}MA2B7777${i}Y`,
      licenceUrl: '',
      intro: `${a.shopName}：产地直供，品质保障。`,
    })),
  );
}
