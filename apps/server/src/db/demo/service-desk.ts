import { memberByPhone } from '../../modules/identity/members';
import { merchantApplication } from '../../modules/merchant/merchant.tables';
import { serviceMessage } from '../../modules/service/service.tables';
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

/** Messages of the demo members (seeded first) and of a visitor; one already answered. */
const DEMO_MESSAGES = [
  {
    siteId: 719,
    phone: '13800000719',
    name: '演示会员',
    topic: '订单问题',
    content: '下单后多久可以发货？想在周末前收到。',
  },
  {
    siteId: 719,
    phone: '13900000001',
    name: '访客',
    topic: '商品咨询',
    content: '龙井茶是今年的新茶吗？',
    reply: '您好，是今年明前新茶，欢迎选购。',
  },
  {
    siteId: 10110,
    phone: '13800010110',
    name: '福利会员',
    topic: '售后服务',
    content: '收到的商品包装破损，怎么申请售后？',
  },
] as const;

export async function seedServiceDesk(db: Db): Promise<void> {
  for (const m of DEMO_MESSAGES) {
    const member = await memberByPhone(db, m.siteId, m.phone);
    const reply = 'reply' in m ? m.reply : '';
    await db.insert(serviceMessage).values({
      siteId: m.siteId,
      memberId: member?.id ?? null,
      name: m.name,
      phone: m.phone,
      topic: m.topic,
      content: m.content,
      reply,
      repliedAt: reply ? new Date() : null,
      repliedBy: reply ? '平台管理员' : '',
    });
  }
  await db.insert(merchantApplication).values(
    DEMO_APPLICATIONS.map((a, i) => ({
      ...a,
      creditCode: `9133010${i}MA2B7777${i}Y`,
      licenceUrl: '',
      intro: `${a.shopName}：产地直供，品质保障。`,
    })),
  );
}
